#!/usr/bin/env bash
# Builds GPUForge for Linux with the JDK's own tools, from the shaded jar (target/gpuforge.jar):
#   1. a trimmed Java runtime: jlink with the modules jdeps reports for the jar (JavaFX travels inside the jar,
#      on the class path, from the Maven artifacts; no JavaFX jmods are needed), plus the few loaded by name
#      (TLS elliptic curves, the Chinese locale data);
#   2. a portable app-image (target/dist/GPUForge: bin/GPUForge the window, bin/gpuforge the command: shell
#      launchers that exec the bundled runtime, in place of jpackage's, which query rpm and dpkg at every start);
#   3. class-data sharing (AppCDS) for it: the app run once to its full window under Xvfb (xvfb-run) writes the
#      classes it loaded (-XX:DumpLoadedClassList), and one static archive of them, the JDK's and the app's together
#      (-Xshare:dump -XX:SharedClassListFile), becomes $APPDIR/gpuforge.jsa, which the window's
#      launcher maps (-XX:SharedArchiveFile); checked to be used (-Xlog:class+load: 'shared objects file');
#   4. a .deb (dpkg-deb and fakeroot) and an .rpm (rpmbuild), when the tools are there: desktop entry in the
#      System menu, icon, depends on GTK 3. Their post-install script makes the AppCDS archive at the installed
#      path (an archive is valid only for the class path it was made with) and links /usr/bin/gpuforge; and installs
#      the monitor's systemd units (installer/linux/systemd: the system service with its user gpuforge, state in
#      /var/lib/gpuforge and vault passphrase in /etc/gpuforge; the user service) and /usr/sbin/gpuforge-service.
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
# absolute: the AppCDS archive records the class path it was made with, and a relative one would hold only for a
# start from the checkout (the desktop menu starts the app from the user's home)
out=$(pwd)/target/dist
[ -f "$jar" ] || die "$jar is missing: build it first (mvn -DskipTests package)"
for tool in jar jdeps jlink jpackage; do
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
# config/: shipped defaults, the admin's site file, logging, example templates, the Grafana dashboard (not the
# CI's apt lists)
cp config/defaults.json config/site.json config/logback.xml config/README.md "$out/input/config/"
cp -r config/templates config/grafana "$out/input/config/"
# the monitor as a service: the system and user units (the packages' post-install scripts put them in place)
cp -r installer/linux/systemd "$out/input/systemd"
# JavaFX's native libraries beside the jar (lib/app), where JavaFX looks first: from inside the jar they are copied
# to ~/.openjfx/cache and both copies checksummed (SHA-256, before the JIT has warmed up) at every start
mapfile -t natives < <(jar tf "$jar" | grep -E '^lib[^/]*\.so$')
[ "${#natives[@]}" -gt 0 ] || die "no JavaFX native libraries at the top of $jar (built for another OS?)"
jar_path=$(realpath "$jar")
(cd "$out/input" && jar xf "$jar_path" "${natives[@]}")
say "JavaFX native libraries beside the jar: $(cd "$out/input" && echo lib*.so)"

# 1. the runtime
start=$(date +%s)
modules=$(jdeps --multi-release 17 --ignore-missing-deps --print-module-deps "$jar")
modules="$modules,jdk.crypto.ec,jdk.localedata,jdk.charsets,jdk.zipfs,jdk.net"
say "runtime modules: $modules"
jlink --add-modules "$modules" --include-locales=en,zh --strip-debug --no-header-files --no-man-pages \
    --compress=2 --output "$out/runtime"
say "runtime: $(du -sh "$out/runtime" | cut -f1) in $(( $(date +%s) - start )) s"

# 2. the app-image: two launchers over one runtime; the window's launcher maps the app's CDS archive (step 3)
common=(--app-version "$version" --vendor GPUForge --copyright "GPUForge contributors"
        --description "GPU passthrough, VMs and GPU telemetry for Proxmox VE and KVM/libvirt")
# the JVM's options, once: for jpackage's launcher configuration (lib/app/*.cfg) and for the launchers below.
# -XX:TieredStopAtLevel=1: the quick compiler (C1) only. Until the main window has filled in, the JIT compilers
# used 2.9 s of processor time in a 2.3 s start (-XX:+CITime; 1.65 s of it C2's, for 217 methods), on machines with
# few cores taken from the start itself. Measured on this 2-core machine, median of 9 alternating starts: first
# frame 649 -> 560 ms, window filled in 2,247 -> 1,548 ms; the monitor's 24-hour chart frame 35 -> 34 ms and the
# 2,000-VM tree's longest pulse 107 -> 78 ms (the benchmarks with and without it). What it costs: the monitor's
# 24-hour history query, 45-80 -> 104-218 ms (MonitorChartBench), work that C2 compiles better once it is hot.
jvm_options=(-XX:TieredStopAtLevel=1 -Dfile.encoding=UTF-8 -Xshare:auto "-XX:SharedArchiveFile=\$APPDIR/gpuforge.jsa"
             -Xlog:cds=off,cds+dynamic=off "-Dgpuforge.installConfig=\$APPDIR/config"
             "-Dlogback.configurationFile=\$APPDIR/config/logback.xml")
java_options=()
for o in "${jvm_options[@]}"; do java_options+=(--java-options "$o"); done
jpackage --type app-image --name GPUForge --dest "$out" --input "$out/input" --main-jar gpuforge.jar \
    --main-class io.gpuforge.boot.Launcher --runtime-image "$out/runtime" --icon installer/icons/gpuforge.png \
    --add-launcher gpuforge=installer/linux/gpuforge-cli.properties "${java_options[@]}" "${common[@]}"
app="$out/GPUForge/lib/app"
# bin/GPUForge and bin/gpuforge become short shell launchers that exec the bundled runtime. JDK 17's native
# launcher asks the package managers which package owns it (rpm -qf, then dpkg -S) at every start, before the JVM
# starts: 0.2 s on this machine, and dpkg -S reads every package's file list, seconds on a host with many packages.
# Same options, same main class, same arguments; the desktop entry and /usr/bin/gpuforge keep their paths.
# Where the machine has no graphics device the launchers also set GDK_GL=disable (unless it is set already): GTK 3
# otherwise loads Mesa's OpenGL (libGLX, swrast_dri.so) at its start only to pick its visuals, which JavaFX's software
# pipeline never uses; 90 ms of a 600 ms start to the first frame here (seven alternating starts, medians 598 -> 504
# ms). With a device JavaFX's OpenGL pipeline loads the driver anyway and GTK is left as it is.
jvm_line=""
for o in "${jvm_options[@]}"; do jvm_line="$jvm_line \"$o\""; done  # $APPDIR: the launcher's variable
# the window's collector: Shenandoah (compact), whose pauses stay under a millisecond where G1's young collections
# (6-26 ms) held up frames of the monitor (docs/performance.md, "Step 4"); the command keeps G1, with which it
# starts 6 % faster. Only where the runtime has it (OpenJDK from Debian, Fedora, Temurin do; Oracle's builds do not)
window_gc="-XX:+UseShenandoahGC -XX:ShenandoahGCHeuristics=compact"
# shellcheck disable=SC2086
if ! "$out/runtime/bin/java" $window_gc -version >/dev/null 2>&1; then
    say "this JDK has no Shenandoah collector: the window runs with G1 (frames may wait on its pauses)"
    window_gc=""
fi
for launcher in GPUForge gpuforge; do
    if [ "$launcher" = GPUForge ]; then gc_line="gc=\"$window_gc\""
    else gc_line="gc=; [ \$# -eq 0 ] && gc=\"$window_gc\"  # no arguments: the window"; fi
    cat > "$out/GPUForge/bin/$launcher" <<LAUNCHER
#!/bin/sh
# GPUForge $version (installer/linux/build.sh): the bundled Java runtime, its options and the app's jar
self=\$(readlink -f "\$0") && APPDIR=\${self%/bin/*}/lib/app || { echo "\$0: cannot find GPUForge's files" >&2; exit 1; }
# no graphics device (the devices boot/RenderingPipeline looks for): JavaFX draws in software, and GTK need not load
# OpenGL (Mesa) to choose its visuals either
if [ -z "\${GDK_GL+set}" ]; then
    gl=disable; for d in /dev/dri/* /dev/nvidiactl /dev/nvidia0; do [ -e "\$d" ] && gl=; done
    [ -n "\$gl" ] && export GDK_GL=\$gl
fi
$gc_line
# shellcheck disable=SC2086
exec "\$APPDIR/../runtime/bin/java"$jvm_line \$gc -Djpackage.app-version=$version -cp "\$APPDIR/gpuforge.jar" io.gpuforge.boot.Launcher "\$@"
LAUNCHER
    chmod 755 "$out/GPUForge/bin/$launcher"
done
rm -f "$out/GPUForge/lib/libapplauncher.so"
# the admin's command for the system service's setup (the gpuforge command as the service runs it)
install -m 0755 installer/linux/gpuforge-service "$out/GPUForge/bin/gpuforge-service"

# 3. AppCDS: the app runs once, from the app-image's own runtime and jar (an archive is valid only for the class
#    path it was made with), until its window has filled in and been drawn (own temp home: the builder's settings
#    are not touched) and lists every class it loaded, with the method handles and lambdas it made. A static archive
#    from that list ($APPDIR/gpuforge.jsa) holds them all, the JDK's own included, and the invoke forms pregenerated:
#    a start with it ran 50-80 ms faster to the first frame than with a dynamic archive (-XX:ArchiveClassesAtExit)
#    on top of the runtime's base archive, which spins some 60 method-handle forms at every start. The .deb/.rpm
#    post-install scripts make the same archive from the same list at the installed path. Without Xvfb: the
#    command line's classes only.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
run_app() { # run_app JAVA-OPTION... : the window, as the launcher starts it, to its first full frame
    timeout 180 xvfb-run -a -s "-screen 0 1280x800x24" "$out/GPUForge/lib/runtime/bin/java" "$@" \
        -Dgpuforge.home="$scratch/home" -Dgpuforge.installConfig="$app/config" -Dfile.encoding=UTF-8 \
        -Dlogback.configurationFile="$app/config/logback.xml" -Dgpuforge.exitAfterFirstFrame=true \
        -cp "$app/gpuforge.jar" io.gpuforge.boot.Launcher
}
if command -v xvfb-run >/dev/null \
        && run_app -XX:DumpLoadedClassList="$app/gpuforge.classlist" >"$scratch/train.log" 2>&1 \
        && "$out/GPUForge/lib/runtime/bin/java" -Xshare:dump -XX:SharedClassListFile="$app/gpuforge.classlist" \
            -XX:SharedArchiveFile="$app/gpuforge.jsa" -cp "$app/gpuforge.jar" >"$scratch/dump.log" 2>&1 \
        && [ -s "$app/gpuforge.jsa" ]; then
    say "AppCDS archive from a start to the full window: $(du -h "$app/gpuforge.jsa" | cut -f1)," \
        "$(wc -l < "$app/gpuforge.classlist") classes"
    # is it used? the app-image's own launcher, started from another directory as the desktop menu does: the share
    # of classes that come from the archives; and JavaFX's native libraries are the ones beside the jar
    rm -rf "$scratch/home"
    mkdir -p "$scratch/elsewhere"
    (cd "$scratch/elsewhere" && JAVA_TOOL_OPTIONS="-Dgpuforge.home=$scratch/home -Dgpuforge.exitAfterFirstFrame=true \
        -Djavafx.verbose=true -Xlog:class+load=info:file=$scratch/load.log" timeout 180 xvfb-run -a \
        -s "-screen 0 1280x800x24" "$out/GPUForge/bin/GPUForge") >"$scratch/check.log" 2>&1 \
        || die "the app did not start with its CDS archive: $(tail -20 "$scratch/check.log")"
    shared=$(grep -c 'source: shared objects file' "$scratch/load.log" || true)
    total=$(grep -c 'class,load' "$scratch/load.log" || true)
    say "AppCDS in use: $shared of $total classes loaded from the shared archives"
    [ "$shared" -gt $(( total / 2 )) ] || die "the CDS archive is not used ($shared of $total classes shared)"
    # without a graphics device (the app's log says so) the launcher has kept GTK from loading OpenGL: the launcher's
    # device check and boot/RenderingPipeline's agree on this machine
    if grep -q 'No graphics device' "$scratch/home/logs/gpuforge.log" \
            && ! grep -q 'GTK without OpenGL (GDK_GL=disable)' "$scratch/home/logs/gpuforge.log"; then
        die "no graphics device, but the launcher did not set GDK_GL=disable: $(grep 'No graphics' \
            "$scratch/home/logs/gpuforge.log")"
    fi
    if grep 'from resource' "$scratch/check.log" >&2; then
        die "JavaFX unpacked native libraries from the jar instead of taking those in $app"
    fi
else
    [ -s "$scratch/train.log" ] && sed -n 1,20p "$scratch/train.log" >&2
    say "no Xvfb (apt install xvfb xauth) or the window did not start: no AppCDS archive, class list of the" \
        "command line only"
    rm -f "$app/gpuforge.jsa"
    "$out/GPUForge/lib/runtime/bin/java" -XX:DumpLoadedClassList="$app/gpuforge.classlist" \
        -Dgpuforge.home="$scratch/home" -cp "$app/gpuforge.jar" io.gpuforge.boot.Launcher --version >/dev/null
fi
say "app-image: $out/GPUForge ($(du -sh "$out/GPUForge" | cut -f1)); $out/GPUForge/bin/gpuforge --version:"
"$out/GPUForge/bin/gpuforge" --version | sed -n 1p >&2

# 4. packages from the app-image. The admin's site.json must survive upgrades: the packages carry it as
#    config/site.example.json, and their post-install script copies it to config/site.json only where there is none
#    yet (a file the package does not own is neither replaced on upgrade nor taken back by it); removing the
#    package removes it.
pkgimage="$scratch/pkg/GPUForge"
if [ "$types" != app-image ]; then
    mkdir -p "$scratch/pkg"
    cp -a "$out/GPUForge" "$pkgimage"
    mv "$pkgimage/lib/app/config/site.json" "$pkgimage/lib/app/config/site.example.json"
    # one menu entry, the window's: JDK 17's jpackage gives every launcher it knows of in an app-image a desktop
    # entry (linux-shortcut=false of the command's launcher is lost there); the command stays in bin/ unnamed
    sed -i 's|<add-launcher>gpuforge</add-launcher>||' "$pkgimage/lib/app/.jpackage.xml"
    # the archive made here is valid only at this path; the post-install script makes the installed one
    rm -f "$pkgimage/lib/app/gpuforge.jsa"
fi
linux=(--linux-package-name gpuforge --linux-menu-group System --linux-shortcut --linux-app-category admin
       --resource-dir installer/linux/resources --icon installer/icons/gpuforge.png --install-dir /opt)
for t in $types; do
    case "$t" in
        app-image) ;;
        deb) jpackage --type deb --name gpuforge --app-image "$pkgimage" --dest "$out" "${common[@]}" \
                 "${linux[@]}" --linux-package-deps libgtk-3-0 --linux-deb-maintainer "gpuforge@localhost"
             say "deb: $(ls "$out"/*.deb)" ;;
        rpm) jpackage --type rpm --name gpuforge --app-image "$pkgimage" --dest "$out" "${common[@]}" \
                 "${linux[@]}" --linux-package-deps gtk3 --linux-rpm-license-type "see README"
             say "rpm: $(ls "$out"/*.rpm)" ;;
        *) die "unknown package type $t (app-image, deb, rpm)" ;;
    esac
done
