package io.gpuforge.cli.gpu;

import io.gpuforge.app.AppContext;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import io.gpuforge.cli.common.CliServices;

/** {@code gpuforge gpu}: GPU telemetry (list, watch, power-limit, energy). */
@Command(name = "gpu", mixinStandardHelpOptions = true, description = "GPU telemetry: readings, live watch, power"
        + " limits and energy.", subcommands = {GpuListCommand.class, GpuWatchCommand.class,
        GpuPowerLimitCommand.class, GpuEnergyCommand.class})
public final class GpuCommand implements Runnable {

    /** The metrics JSON lines start with, in this order; the rest follow. */
    static final List<GpuMetric> FIRST = List.of(GpuMetric.TEMPERATURE_C, GpuMetric.POWER_W, GpuMetric.POWER_LIMIT_W,
            GpuMetric.UTILIZATION_PCT, GpuMetric.MEMORY_USED_MIB);

    @Spec
    CommandSpec spec;

    GpuCommand(CliServices services) {
        // the subcommands do the work
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** A sample as one JSON object: absent readings are left out, never 0. */
    static Map<String, Object> json(GpuSample s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("time", s.time().truncatedTo(ChronoUnit.MILLIS).toString());
        m.put("host", s.gpu().host());
        m.put("gpu", s.gpu().device());
        m.put("name", s.name());
        for (GpuMetric x : FIRST) {
            s.get(x).ifPresent(v -> m.put(x.json(), round(v)));
        }
        for (GpuMetric x : GpuMetric.values()) {
            if (!FIRST.contains(x)) {
                s.get(x).ifPresent(v -> m.put(x.json(), round(v)));
            }
        }
        s.node().ifPresent(n -> m.put("node", n));
        s.vm().ifPresent(v -> m.put("vm", v));
        m.put("source", s.source().json());
        return m;
    }

    static Object round(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return (long) v;
        }
        return Math.round(v * 100) / 100.0;
    }

    static final List<GpuMetric> CSV = List.of(GpuMetric.TEMPERATURE_C, GpuMetric.POWER_W, GpuMetric.POWER_LIMIT_W,
            GpuMetric.UTILIZATION_PCT, GpuMetric.MEMORY_USED_MIB, GpuMetric.MEMORY_TOTAL_MIB, GpuMetric.FAN_PCT,
            GpuMetric.SM_CLOCK_MHZ, GpuMetric.MEMORY_CLOCK_MHZ);

    static String csvHeader() {
        StringBuilder b = new StringBuilder("time,host,gpu,name,source");
        CSV.forEach(m -> b.append(',').append(m.json()));
        return b.toString();
    }

    static String csv(GpuSample s) {
        StringBuilder b = new StringBuilder();
        b.append(s.time().truncatedTo(ChronoUnit.MILLIS)).append(',').append(cell(s.gpu().host())).append(',')
                .append(cell(s.gpu().device())).append(',').append(cell(s.name())).append(',').append(s.source().json());
        for (GpuMetric m : CSV) {
            b.append(',');
            s.get(m).ifPresent(v -> b.append(round(v)));
        }
        return b.toString();
    }

    private static String cell(String v) {
        return v.contains(",") || v.contains("\"") ? "\"" + v.replace("\"", "\"\"") + "\"" : v;
    }

    /** One line for people: what is there, with units. */
    static String text(GpuSample s) {
        return text(s, true);
    }

    /** The same; {@code vm}: whether to say the VM the reading came from (not where the holder is said after). */
    static String text(GpuSample s, boolean vm) {
        StringBuilder b = new StringBuilder();
        b.append(Instant.ofEpochMilli(s.timeMillis()).truncatedTo(ChronoUnit.SECONDS)).append("  ")
                .append(s.gpu()).append("  ").append(s.name().isEmpty() ? "?" : s.name());
        s.get(GpuMetric.TEMPERATURE_C).ifPresent(v -> b.append(String.format(Locale.ROOT, "  %.0f °C", v)));
        s.get(GpuMetric.POWER_W).ifPresent(v -> b.append(String.format(Locale.ROOT, "  %.1f W", v)));
        s.get(GpuMetric.POWER_LIMIT_W).ifPresent(v -> b.append(String.format(Locale.ROOT, " / %.0f W", v)));
        s.get(GpuMetric.UTILIZATION_PCT).ifPresent(v -> b.append(String.format(Locale.ROOT, "  %.0f %%", v)));
        s.get(GpuMetric.MEMORY_USED_MIB).ifPresent(v -> b.append(String.format(Locale.ROOT, "  %.0f MiB", v)));
        s.vm().filter(v -> vm).ifPresent(v -> b.append("  in ").append(v));
        b.append("  [").append(s.source().label()).append(']');
        return b.toString();
    }
}
