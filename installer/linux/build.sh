#!/usr/bin/env bash
# Builds GPUForge for Linux with the JDK's own tools, from the shaded jar (target/gpuforge.jar):
#   1. a trimmed Java runtime: jlink with the modules jdeps reports for the jar (JavaFX travels inside the jar,
#      on the class path, from the Maven artifacts; no JavaFX jmods are needed), plus the few loaded by name
#      (TLS elliptic curves, the Chinese locale data);
#   2. the class list for class-data sharing (AppCDS): the app is run once to its first frame under Xvfb
#      (xvfb-run) with -XX:DumpLoadedClassList; without Xvfb, the command line's classes only;
#   3. a portable app-image (target/dist/GPUForge: bin/GPUForge the window, bin/gpuforge the command);
#   4. a .deb (dpkg-deb and fakeroot) and an .rpm (rpmbuild), when the tools are there: desktop entry in the
#      System menu, icon, depends on GTK 3. Their post-install script makes the AppCDS archive at the installed
#      path (an archive is valid only for the class path it was made with) and links /usr/bin/gpuforge.
# Run by `mvn -Pdist package` (see pom.xml), or by hand after `mvn -DskipTests package`:
#   installer/linux/build.sh VERSION [TYPES]      TYPES: any of "app-image deb rpm" (default: all it can)
# Output in target/dist/.
set -euo pipefail
cd "$(dirname "$0")/../.."
say() { echo "installer/linux/build.sh: $*" >&2; }
die() { say "$*"; exit 2; }

version=${1:?usage: installer/linux/build.sh VERSION [TYPES]}
version=${version%-SNAPSHOT}
types=${2:-auto}
jar=target/gpuforge.jar
out=target/dist
[ -f "$jar" ] || die "$jar is missing: build it first (mvn -DskipTests package)"
for tool in jdeps jlink jpackage; do
    command -v "$tool" >/dev/null || die "$tool is missing: it comes with a full JDK 17+ (apt install openjdk-17-jdk)"
done
if [ "$types" = auto ]; then
    types=app-image
    if command -v dpkg-deb >/dev/null && command -v fakeroot >/dev/null; then types="$types deb"; fi
    if command -v rpmbuild >/dev/null; then types="$types rpm"; fi
fi
rm -rf "$out"
mkdir -p "$out/input/config"
cp "$jar" "$out/input/gpuforge.jar"
# config/: shipped defaults, the admin's site file, logging, example templates (not the CI's apt lists)
cp config/defaults.json config/site.json config/logback.xml config/README.md "$out/input/config/"
cp -r config/templates "$out/input/config/"

# 1. the runtime
start=$(date +%s)
modules=$(jdeps --multi-release 17 --ignore-missing-deps --print-module-deps "$jar")
modules="$modules,jdk.crypto.ec,jdk.localedata,jdk.charsets,jdk.zipfs,jdk.net"
say "runtime modules: $modules"
jlink --add-modules "$modules" --include-locales=en,zh --strip-debug --no-header-files --no-man-pages \
    --compress=2 --output "$out/runtime"
say "runtime: $(du -sh "$out/runtime" | cut -f1) in $(( $(date +%s) - start )) s"

# 2. the class list for AppCDS, from a real start (own temp home: the builder's settings are not touched)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
run_app=("$out/runtime/bin/java" -XX:DumpLoadedClassList="$out/input/gpuforge.classlist"
         -Dgpuforge.home="$scratch/home" -Dgpuforge.installConfig="$out/input/config"
         -Dgpuforge.exitAfterFirstFrame=true -cp "$out/input/gpuforge.jar" io.gpuforge.boot.Launcher)
if command -v xvfb-run >/dev/null && timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" "${run_app[@]}" \
        >"$scratch/train.log" 2>&1; then
    say "class list from a start to the first frame: $(wc -l < "$out/input/gpuforge.classlist") classes"
else
    [ -s "$scratch/train.log" ] && sed -n 1,20p "$scratch/train.log" >&2
    say "no Xvfb (apt install xvfb xauth) or the window did not start: class list of the command line only"
    "$out/runtime/bin/java" -XX:DumpLoadedClassList="$out/input/gpuforge.classlist" -Dgpuforge.home="$scratch/home" \
        -cp "$out/input/gpuforge.jar" io.gpuforge.boot.Launcher --version >/dev/null
fi

# 3. the app-image: two launchers over one runtime
common=(--app-version "$version" --vendor GPUForge --copyright "GPUForge contributors"
        --description "GPU passthrough, VMs and GPU telemetry for Proxmox VE and KVM/libvirt")
java_options=(--java-options "-Dfile.encoding=UTF-8"
              --java-options "-Xshare:auto"
              --java-options "-XX:SharedArchiveFile=\$APPDIR/gpuforge.jsa"
              --java-options "-Xlog:cds=off,cds+dynamic=off"
              --java-options "-Dgpuforge.installConfig=\$APPDIR/config"
              --java-options "-Dlogback.configurationFile=\$APPDIR/config/logback.xml")
jpackage --type app-image --name GPUForge --dest "$out" --input "$out/input" --main-jar gpuforge.jar \
    --main-class io.gpuforge.boot.Launcher --runtime-image "$out/runtime" --icon installer/icons/gpuforge.png \
    --add-launcher gpuforge=installer/linux/gpuforge-cli.properties "${java_options[@]}" "${common[@]}"
say "app-image: $out/GPUForge ($(du -sh "$out/GPUForge" | cut -f1)); $out/GPUForge/bin/gpuforge --version:"
"$out/GPUForge/bin/gpuforge" --version | sed -n 1p >&2

# 4. packages from the app-image
linux=(--linux-package-name gpuforge --linux-menu-group System --linux-shortcut --linux-app-category admin
       --resource-dir installer/linux/resources --icon installer/icons/gpuforge.png --install-dir /opt)
for t in $types; do
    case "$t" in
        app-image) ;;
        deb) jpackage --type deb --name gpuforge --app-image "$out/GPUForge" --dest "$out" "${common[@]}" \
                 "${linux[@]}" --linux-package-deps libgtk-3-0 --linux-deb-maintainer "gpuforge@localhost"
             say "deb: $(ls "$out"/*.deb)" ;;
        rpm) jpackage --type rpm --name gpuforge --app-image "$out/GPUForge" --dest "$out" "${common[@]}" \
                 "${linux[@]}" --linux-package-deps gtk3 --linux-rpm-license-type "see README"
             say "rpm: $(ls "$out"/*.rpm)" ;;
        *) die "unknown package type $t (app-image, deb, rpm)" ;;
    esac
done
