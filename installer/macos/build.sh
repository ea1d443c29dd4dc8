#!/usr/bin/env bash
# Builds GPUForge for macOS: a trimmed runtime (jlink, modules from jdeps), GPUForge.app and a .dmg.
# Run on a Mac with a JDK 17+ (jpackage; hdiutil comes with macOS), from the checkout, after
#   mvn -DskipTests -Djavafx.platform=mac package          (mac-aarch64 on Apple silicon)
#   [GPUFORGE_CDS=1] installer/macos/build.sh 0.1.0
# Output in target/dist/. Not run in CI (Linux only); keep it in step with installer/linux/build.sh.
# Signing and notarisation are left to the release: set MAC_SIGN_IDENTITY="Developer ID Application: …" to sign
# (jpackage --mac-sign); an unsigned .dmg opens after right-click → Open.
# The icon is installer/icons/gpuforge.icns (PNG entries 16..1024, made by installer/icons/MakeIcons.java).
# Start-up (as installer/linux/build.sh): JavaFX's native libraries (.dylib) lie beside the jar in Contents/app,
# where JavaFX looks first (from inside the jar they are copied to ~/.openjfx/cache and checksummed at every start);
# the launcher's JVM options are the Linux ones.
# AppCDS: the archive is made at the installed path only (an archive is valid for one class path). Its class list
# comes from a start to the full window with GPUFORGE_CDS=1 (needs a logged-in desktop session: GPUForge opens,
# draws its window and closes by itself; not possible in CI), else from the command line's start only; it is made
# before jpackage, so a signed bundle holds it. After copying GPUForge.app to /Applications, once:
#   /Applications/GPUForge.app/Contents/runtime/Contents/Home/bin/java -Xshare:dump \
#     -XX:SharedClassListFile=/Applications/GPUForge.app/Contents/app/gpuforge.classlist \
#     -XX:SharedArchiveFile=/Applications/GPUForge.app/Contents/app/gpuforge.jsa \
#     -cp /Applications/GPUForge.app/Contents/app/gpuforge.jar
# (that changes the signed bundle: for a signed release make the archive before signing, at the final path).
set -euo pipefail
cd "$(dirname "$0")/../.."
version=${1:?usage: installer/macos/build.sh VERSION}
version=${version%-SNAPSHOT}
jar=target/gpuforge.jar
out=target/dist
[ -f "$jar" ] || { echo "$jar is missing: mvn -DskipTests -Djavafx.platform=mac package" >&2; exit 2; }
[ "$(uname -s)" = Darwin ] || { echo "installer/macos/build.sh runs on macOS only" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out/input/config"
cp "$jar" "$out/input/gpuforge.jar"
cp config/defaults.json config/site.json config/logback.xml config/README.md "$out/input/config/"
cp -r config/templates config/grafana "$out/input/config/"
jar_path=$(cd "$(dirname "$jar")" && pwd)/$(basename "$jar")
natives=()
while IFS= read -r n; do natives+=("$n"); done < <(jar tf "$jar" | grep -E '^lib[^/]*\.dylib$')
[ "${#natives[@]}" -gt 0 ] || { echo "no JavaFX native libraries (.dylib) in $jar: -Djavafx.platform=mac" >&2; exit 2; }
(cd "$out/input" && jar xf "$jar_path" "${natives[@]}")
modules=$(jdeps --multi-release 17 --ignore-missing-deps --print-module-deps "$jar")
modules="$modules,jdk.crypto.ec,jdk.localedata,jdk.charsets,jdk.zipfs,jdk.net"
jlink --add-modules "$modules" --include-locales=en,zh --strip-debug --no-header-files --no-man-pages \
    --compress=2 --output "$out/runtime"
input=$(cd "$out/input" && pwd)
class_list=(-XX:DumpLoadedClassList="$input/gpuforge.classlist" -Dgpuforge.home="$(mktemp -d)" -Dfile.encoding=UTF-8
            -Dgpuforge.installConfig="$input/config" -Dlogback.configurationFile="$input/config/logback.xml"
            -cp "$input/gpuforge.jar" io.gpuforge.boot.Launcher)
if [ "${GPUFORGE_CDS:-0}" = 1 ]; then
    "$out/runtime/bin/java" -Dgpuforge.exitAfterFirstFrame=true "${class_list[@]}" \
        || { echo "GPUForge did not start to its window for the class list (GPUFORGE_CDS=1 needs a desktop)" >&2; exit 2; }
else
    "$out/runtime/bin/java" "${class_list[@]}" --version >/dev/null
fi
echo "class list: $(wc -l < "$input/gpuforge.classlist") classes" >&2
common=(--app-version "$version" --vendor GPUForge --copyright "GPUForge contributors"
        --description "GPU passthrough, VMs and GPU telemetry for Proxmox VE and KVM/libvirt")
# the collector: Shenandoah (compact), whose pauses stay under a millisecond where G1's young collections (6-26 ms)
# held up frames of the monitor (docs/performance.md, "Step 4"); both launchers share it here (the command starts
# some 30 ms slower with it). Only where this runtime has it (Temurin does; Oracle's builds do not)
gc=()
if "$out/runtime/bin/java" -XX:+UseShenandoahGC -XX:ShenandoahGCHeuristics=compact -version >/dev/null 2>&1; then
    gc=(--java-options "-XX:+UseShenandoahGC" --java-options "-XX:ShenandoahGCHeuristics=compact")
else
    echo "this JDK has no Shenandoah collector: the window runs with G1 (frames may wait on its pauses)" >&2
fi
sign=()
if [ -n "${MAC_SIGN_IDENTITY:-}" ]; then sign=(--mac-sign --mac-signing-key-user-name "$MAC_SIGN_IDENTITY"); fi
jpackage --type app-image --name GPUForge --dest "$out" --input "$out/input" --main-jar gpuforge.jar \
    --main-class io.gpuforge.boot.Launcher --runtime-image "$out/runtime" --icon installer/icons/gpuforge.icns \
    --mac-package-identifier io.gpuforge.GPUForge --mac-package-name GPUForge \
    --add-launcher gpuforge=installer/linux/gpuforge-cli.properties \
    --java-options "-XX:TieredStopAtLevel=1" --java-options "-Dfile.encoding=UTF-8" --java-options "-Xshare:auto" \
    --java-options "-XX:SharedArchiveFile=\$APPDIR/gpuforge.jsa" --java-options "-Xlog:cds=off,cds+dynamic=off" \
    --java-options "-Dgpuforge.installConfig=\$APPDIR/config" \
    --java-options "-Dlogback.configurationFile=\$APPDIR/config/logback.xml" \
    "${gc[@]}" "${sign[@]}" "${common[@]}"
jpackage --type dmg --name GPUForge --app-image "$out/GPUForge.app" --dest "$out" "${sign[@]}" "${common[@]}"
ls -1 "$out"/*.dmg
