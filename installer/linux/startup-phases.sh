#!/usr/bin/env bash
# Where the packaged app's start goes, phase by phase, from evidence that does not depend on how loaded the machine
# is as much as a stopwatch does: the JVM's own log (-Xlog:startuptime, and -Xlog:class+load with uptime and thread
# id), the app's log ("First frame N ms after JVM start"), JavaFX's -Dprism.verbose (which pipeline it tried and
# took). Each phase runs from the first load of one class to the first load of the next one; median of RUNS starts
# of the app-image's own runtime, jar and CDS archive, under one Xvfb, each with an empty home, from a directory
# other than the checkout (as a user starts it from the desktop menu).
#   installer/linux/startup-phases.sh [RUNS] [APP-IMAGE]     (defaults: 5, target/dist/GPUForge)
# Extra JVM options to try: GPUFORGE_PHASES_JAVA_OPTIONS="-XX:+UseSerialGC …"; GPUFORGE_PHASES_CWD: the directory
# to start from (default: a fresh temporary one); GPUFORGE_PHASES_NICE=-20: run the starts at that priority (as root,
# on a machine busy with other work). Needs xvfb-run.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}
image=$(realpath "${2:-target/dist/GPUForge}")
app="$image/lib/app"
java="$image/lib/runtime/bin/java"
[ -x "$java" ] || { echo "no app-image at $image: mvn -Pdist -DskipTests -Ddist.types=app-image package" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "xvfb-run is missing (apt install xvfb xauth)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the launcher's own options (lib/app/GPUForge.cfg), with $APPDIR spelt out, and its environment (GDK_GL where the
# machine has no graphics device: the block of bin/GPUForge that sets it)
mapfile -t cfg < <(sed -n 's/^java-options=//p' "$app/GPUForge.cfg" | sed "s|\$APPDIR|$app|g")
eval "$(sed -n '/^if \[ -z "\${GDK_GL+set}" \]; then/,/^fi/p' "$image/bin/GPUForge")"
# and the window's collector (the gc= line of bin/GPUForge: Shenandoah where the runtime has it)
eval "$(sed -n '/^gc=/p' "$image/bin/GPUForge")"
read -r -a gc <<< "${gc:-}"
read -r -a extra <<< "${GPUFORGE_PHASES_JAVA_OPTIONS:-}"

# marker: the first load of this class (the name as -Xlog:class+load prints it)
markers=(
    "main() entered|io.gpuforge.boot.Launcher"
    "toolkit start asked|com.sun.javafx.application.PlatformImpl"
    "Prism: pipeline search|com.sun.prism.GraphicsPipeline"
    "Prism: es2 tried|com.sun.prism.es2.ES2Pipeline"
    "Prism: sw fallback|com.sun.prism.sw.SWPipeline"
    "Prism: sw resources|com.sun.prism.sw.SWResourceFactory"
    "Glass: GTK start|com.sun.glass.ui.gtk.GtkApplication"
    "first-frame settings (begun by main)|io.gpuforge.app.settings.FirstFrameSettings"
    "init(): window start made|io.gpuforge.boot.WindowStart"
    "start()|io.gpuforge.ui.common.ThemeManager"
    "CSS: style manager|com.sun.javafx.css.StyleManager"
    "CSS: theme (AtlantaFX)|atlantafx.base.theme.Theme"
    "first scene: nodes|io.gpuforge.ui.shell.StartingFrame"
    "fonts|com.sun.javafx.font.PrismFontFactory"
    "CSS: first .css parsed|javafx.css.CssParser"
    "SHA-256 (natives' checksum)|sun.security.provider.SHA2"
    "JUL's console format (date)|java.util.logging.SimpleFormatter"
)
for i in $(seq 1 "$runs"); do
    home="$work/home$i"
    (cd "${GPUFORGE_PHASES_CWD:-$work}" && timeout 120 ${GPUFORGE_PHASES_NICE:+nice -n "$GPUFORGE_PHASES_NICE"} xvfb-run -a -s "-screen 0 1280x800x24" "$java" "${cfg[@]}" "${gc[@]}" "${extra[@]}" \
        -Dgpuforge.home="$home" -Dgpuforge.exitAfterFirstFrame=true -Dprism.verbose=true \
        -Xlog:startuptime:file="$work/vm$i.log":uptime -Xlog:class+load:file="$work/load$i.log":uptime,tid \
        -cp "$app/gpuforge.jar" io.gpuforge.boot.Launcher >"$work/out$i.log" 2>&1) || {
        echo "run $i failed:" >&2; tail -20 "$work/out$i.log" >&2; exit 1; }
    {
        sed -n 's/^\[\([0-9.]*\)s\].*Create VM.*/JVM created (CDS mapped)|\1/p' "$work/vm$i.log"
        for m in "${markers[@]}"; do
            t=$(grep -m1 -F "] ${m#*|} source:" "$work/load$i.log" | sed 's/^\[\([0-9.]*\)s\].*/\1/') || true
            [ -n "$t" ] && echo "${m%|*}|$t"
        done
        f=$(sed -n 's/.*First frame \([0-9]*\) ms after JVM start.*/\1/p' "$home/logs/gpuforge.log" | head -1)
        r=$(sed -n 's/.*Window ready \([0-9]*\) ms after JVM start.*/\1/p' "$home/logs/gpuforge.log" | head -1)
        echo "first frame (app log)|$(awk -v f="$f" 'BEGIN { printf "%.3f", f / 1000 }')"
        echo "main window filled in|$(awk -v f="$r" 'BEGIN { printf "%.3f", f / 1000 }')"
        echo "classes loaded|$(grep -c 'source:' "$work/load$i.log")"
        echo "classes from the CDS archives|$(grep -c 'source: shared objects file' "$work/load$i.log" || true)"
        echo "Prism pipeline|$(sed -n 's/^Initialized prism pipeline: //p' "$work/out$i.log" | head -1)"
    } > "$work/marks$i.txt"
done
echo "median of $runs starts (s after JVM start; load average $(cut -d' ' -f1-3 /proc/loadavg))"
echo "options: ${cfg[*]} ${gc[*]} ${extra[*]}${GDK_GL+ (GDK_GL=$GDK_GL)}"
awk -F'|' -v runs="$runs" '
    { if (!($1 in seen)) { order[++n] = $1; seen[$1] = 1 } v[$1, ++c[$1]] = $2 }
    END {
        for (k = 1; k <= n; k++) {
            key = order[k]; m = c[key]
            if (v[key, 1] ~ /^[0-9.]+$/) {
                for (i = 1; i <= m; i++) a[i] = v[key, i] + 0
                for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                printf "  %-36s %10s   (%d of %d runs)\n", key, a[int((m + 1) / 2)], m, runs
            } else {
                printf "  %-36s %10s\n", key, v[key, 1]
            }
        }
    }' "$work"/marks*.txt
