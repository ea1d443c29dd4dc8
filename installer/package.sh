#!/usr/bin/env bash
# Builds a self-contained GPUForge with jpackage (JDK 17+): an app-image, and a .deb on Debian/Ubuntu
# (needs fakeroot and dpkg-deb). Output in target/installer/.
#   installer/package.sh            # app-image and, where possible, .deb
#   installer/package.sh app-image  # only the app-image
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
version=$(mvn -q -B help:evaluate -Dexpression=project.version -DforceStdout | sed 's/-SNAPSHOT//')
mvn -q -B -DskipTests package
rm -rf target/jpackage-input target/installer
mkdir -p target/jpackage-input target/installer
cp target/gpuforge.jar target/jpackage-input/
common=(--name GPUForge --app-version "$version" --vendor "GPUForge"
        --description "GPU passthrough, VMs and GPU telemetry for Proxmox VE and KVM/libvirt"
        --input target/jpackage-input --main-jar gpuforge.jar --main-class io.gpuforge.boot.Launcher
        --java-options "-Dfile.encoding=UTF-8" --dest target/installer)
jpackage --type app-image "${common[@]}"
echo "app-image: target/installer/GPUForge"
if [ "$what" = all ] && command -v dpkg-deb >/dev/null && command -v fakeroot >/dev/null; then
    jpackage --type deb "${common[@]}" --linux-package-name gpuforge --linux-shortcut \
        --linux-menu-group "System" --linux-package-deps libgtk-3-0 --linux-app-category admin
    ls -1 target/installer/*.deb
fi
