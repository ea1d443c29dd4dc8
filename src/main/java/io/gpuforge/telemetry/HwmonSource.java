package io.gpuforge.telemetry;

import io.gpuforge.bounded.BoundedStreams;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceInfo;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * AMD GPUs through the amdgpu driver's sysfs: {@code /sys/class/drm/cardN/device/hwmon/hwmonM/} (temperatures in
 * m°C with labels edge/junction/mem, power in µW as {@code power1_average} or {@code power1_input}, the power cap
 * and its range, fan PWM, clocks) and {@code device/gpu_busy_percent}, {@code mem_info_vram_used/total}. Read from
 * this computer, from a copy of a host's {@code /} (a sysroot), or over SSH in one round trip per tick.
 */
public final class HwmonSource implements GpuSource.Polled {

    /** All files of interest, by path relative to {@code /sys/class/drm} ({@code card0/device/uevent}). */
    @FunctionalInterface
    public interface TreeReader {
        Map<String, String> read() throws SourceException;
    }

    private static final Pattern CARD = Pattern.compile("^(card\\d+)/device/(.+)$");
    private static final Pattern HWMON = Pattern.compile("^hwmon/(hwmon\\d+)/(.+)$");
    static final String SCRIPT = "cd \"${1:-}/sys/class/drm\" 2>/dev/null || exit 0; for f in card*/device/uevent"
            + " card*/device/gpu_busy_percent card*/device/mem_info_vram_used card*/device/mem_info_vram_total"
            + " card*/device/product_name card*/device/hwmon/hwmon*/name card*/device/hwmon/hwmon*/temp*_input"
            + " card*/device/hwmon/hwmon*/temp*_label card*/device/hwmon/hwmon*/temp*_crit"
            + " card*/device/hwmon/hwmon*/temp*_emergency card*/device/hwmon/hwmon*/power1_*"
            + " card*/device/hwmon/hwmon*/pwm1 card*/device/hwmon/hwmon*/pwm1_max card*/device/hwmon/hwmon*/freq*;"
            + " do [ -f \"$f\" ] && [ -r \"$f\" ] && printf '%s\\t%s\\n' \"$f\" \"$(head -c 4096 \"$f\" | tr '\\n\\t' '  ')\";"
            + " done; exit 0";

    private final TreeReader files;
    private final String host;
    private final Optional<String> node;
    private final SourceInfo info;

    public HwmonSource(TreeReader files, String host, Optional<String> node, String where) {
        this.files = files;
        this.host = host;
        this.node = node;
        this.info = new SourceInfo(SourceKind.HWMON, host, where, "amdgpu hwmon on " + where);
    }

    /** This computer, or a sysroot standing for a host's {@code /}. */
    public static HwmonSource local(Path root, String host, Optional<String> node) {
        return new HwmonSource(() -> readTree(root.resolve("sys/class/drm")), host, node,
                root.toString().equals("/") ? "this computer" : root.toString());
    }

    /** A host over SSH (one command per tick). */
    public static HwmonSource shell(HostShell shell, String host, Optional<String> node) {
        return new HwmonSource(() -> {
            try {
                HostShell.Result r = shell.run(SCRIPT, new byte[0], Duration.ofSeconds(10));
                return parseListing(new String(r.stdout(), StandardCharsets.UTF_8));
            } catch (ProbeException e) {
                throw new SourceException("cannot read hwmon on " + shell.describe() + ": " + e.getMessage(), e);
            }
        }, host, node, shell.describe());
    }

    @Override
    public SourceInfo info() {
        return info;
    }

    static Map<String, String> parseListing(String text) {
        Map<String, String> m = new TreeMap<>();
        for (String line : text.split("\n")) {
            int tab = line.indexOf('\t');
            if (tab > 0) {
                m.put(line.substring(0, tab), line.substring(tab + 1).strip());
            }
        }
        return m;
    }

    static Map<String, String> readTree(Path drm) throws SourceException {
        Map<String, String> m = new TreeMap<>();
        if (!Files.isDirectory(drm)) {
            return m;
        }
        try (Stream<Path> cards = Files.list(drm)) {
            for (Path card : cards.filter(p -> p.getFileName().toString().matches("card\\d+")).toList()) {
                Path dev = card.resolve("device");
                for (String f : List.of("uevent", "gpu_busy_percent", "mem_info_vram_used", "mem_info_vram_total",
                        "product_name")) {
                    put(m, drm, dev.resolve(f));
                }
                Path hw = dev.resolve("hwmon");
                if (Files.isDirectory(hw)) {
                    try (Stream<Path> mons = Files.list(hw)) {
                        for (Path mon : mons.toList()) {
                            try (Stream<Path> fs = Files.list(mon)) {
                                for (Path f : fs.toList()) {
                                    put(m, drm, f);
                                }
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new SourceException("cannot read " + drm + ": " + e.getMessage(), e);
        }
        return m;
    }

    private static void put(Map<String, String> m, Path base, Path f) {
        if (Files.isRegularFile(f) && Files.isReadable(f)) {
            try {
                byte[] b = BoundedStreams.readAll(f, 64 * 1024);
                m.put(base.relativize(f).toString(), new String(b, 0, Math.min(b.length, 4096), StandardCharsets.UTF_8)
                        .strip());
            } catch (IOException e) {
                // a sysfs file that refuses to be read (EIO, EPERM) is a reading that is absent
            }
        }
    }

    @Override
    public List<GpuSample> poll(long nowMillis, int intervalMillis) throws SourceException {
        Map<String, Map<String, String>> cards = new TreeMap<>();
        for (Map.Entry<String, String> e : files.read().entrySet()) {
            Matcher c = CARD.matcher(e.getKey());
            if (c.matches()) {
                cards.computeIfAbsent(c.group(1), k -> new TreeMap<>()).put(c.group(2), e.getValue());
            }
        }
        List<GpuSample> out = new ArrayList<>();
        for (Map<String, String> dev : cards.values()) {
            if (!dev.getOrDefault("uevent", "").contains("DRIVER=amdgpu")) {
                continue;
            }
            out.add(sample(dev, nowMillis, intervalMillis));
        }
        if (out.isEmpty()) {
            throw new SourceException("no AMD GPU with the amdgpu driver on " + info.host()
                    + " (/sys/class/drm/card*/device/hwmon)");
        }
        return out;
    }

    private GpuSample sample(Map<String, String> dev, long now, int interval) {
        String uevent = dev.getOrDefault("uevent", "");
        String slot = field(uevent, "PCI_SLOT_NAME").orElse("unknown");
        String name = dev.getOrDefault("product_name", "");
        if (name.isBlank()) {
            name = "AMD GPU " + field(uevent, "PCI_ID").orElse("");
        }
        Map<String, String> mon = new TreeMap<>();
        for (Map.Entry<String, String> e : dev.entrySet()) {
            Matcher h = HWMON.matcher(e.getKey());
            if (h.matches()) {
                mon.put(h.group(2), e.getValue());
            }
        }
        GpuSample.Builder b = GpuSample.builder(new GpuId(host, slot), now, SourceKind.HWMON).name(name.strip())
                .node(node).intervalMillis(interval);
        String edge = sensor(mon, "edge").orElse("temp1");
        String mem = sensor(mon, "mem").orElse("");
        b.set(GpuMetric.TEMPERATURE_C, num(mon.get(edge + "_input")) / 1000);
        if (!mem.isEmpty()) {
            b.set(GpuMetric.MEMORY_TEMPERATURE_C, num(mon.get(mem + "_input")) / 1000);
        }
        b.set(GpuMetric.SLOWDOWN_TEMP_C, num(mon.get(edge + "_crit")) / 1000);
        b.set(GpuMetric.SHUTDOWN_TEMP_C, num(mon.get(edge + "_emergency")) / 1000);
        double power = num(mon.get("power1_average"));
        b.set(GpuMetric.POWER_W, (Double.isNaN(power) ? num(mon.get("power1_input")) : power) / 1e6);
        b.set(GpuMetric.POWER_LIMIT_W, num(mon.get("power1_cap")) / 1e6);
        b.set(GpuMetric.POWER_MIN_LIMIT_W, num(mon.get("power1_cap_min")) / 1e6);
        b.set(GpuMetric.POWER_MAX_LIMIT_W, num(mon.get("power1_cap_max")) / 1e6);
        double pwm = num(mon.get("pwm1"));
        double pwmMax = num(mon.get("pwm1_max"));
        if (pwmMax > 0) {
            b.set(GpuMetric.FAN_PCT, 100 * pwm / pwmMax);
        }
        for (String f : List.of("freq1", "freq2")) {
            String label = mon.getOrDefault(f + "_label", "");
            double hz = num(mon.get(f + "_input"));
            if (label.equals("sclk")) {
                b.set(GpuMetric.SM_CLOCK_MHZ, hz / 1e6);
            } else if (label.equals("mclk")) {
                b.set(GpuMetric.MEMORY_CLOCK_MHZ, hz / 1e6);
            }
        }
        b.set(GpuMetric.UTILIZATION_PCT, num(dev.get("gpu_busy_percent")));
        b.set(GpuMetric.MEMORY_USED_MIB, num(dev.get("mem_info_vram_used")) / 1048576);
        b.set(GpuMetric.MEMORY_TOTAL_MIB, num(dev.get("mem_info_vram_total")) / 1048576);
        return b.build();
    }

    /** The {@code tempN} whose label is {@code label}. */
    private static Optional<String> sensor(Map<String, String> mon, String label) {
        return mon.entrySet().stream().filter(e -> e.getKey().matches("temp\\d+_label") && e.getValue().equals(label))
                .map(e -> e.getKey().substring(0, e.getKey().indexOf('_'))).findFirst();
    }

    private static Optional<String> field(String uevent, String key) {
        for (String l : uevent.split("[\\s]+")) {
            if (l.startsWith(key + "=")) {
                return Optional.of(l.substring(key.length() + 1).toLowerCase(Locale.ROOT));
            }
        }
        return Optional.empty();
    }

    private static double num(String s) {
        if (s == null || s.isBlank()) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(s.strip());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    @Override
    public void close() {
        // nothing held
    }
}
