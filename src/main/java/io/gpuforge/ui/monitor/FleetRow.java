package io.gpuforge.ui.monitor;

import io.gpuforge.app.monitor.GpuFleet;
import io.gpuforge.app.monitor.NoData;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.ui.common.I18n;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * A row of the fleet table: the GPU and its live values (NaN while unknown), updated once a frame from the fleet's
 * newest reading; only values that changed fire. The sparkline holds the last minute of utilisation.
 */
final class FleetRow {

    static final long SPARK_MILLIS = 60_000;

    private final ReadOnlyObjectWrapper<FleetGpu> gpu = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyDoubleWrapper temperature = new ReadOnlyDoubleWrapper(Double.NaN);
    private final ReadOnlyDoubleWrapper power = new ReadOnlyDoubleWrapper(Double.NaN);
    private final ReadOnlyDoubleWrapper limit = new ReadOnlyDoubleWrapper(Double.NaN);
    private final ReadOnlyDoubleWrapper vram = new ReadOnlyDoubleWrapper(Double.NaN);
    private final ReadOnlyStringWrapper source = new ReadOnlyStringWrapper("");
    /** Why the GPU's source gives no readings (its error), empty while it does. */
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    /** Utilisation now and over the last minute together: what the utilisation column shows, in one value. */
    private final ReadOnlyObjectWrapper<Utilization> utilization =
            new ReadOnlyObjectWrapper<>(new Utilization(Double.NaN, new double[0]));
    private long sparkUntil;

    /**
     * What a row's utilisation cell draws: the value now (NaN while unknown) and the last minute's values, oldest first.
     * The cell takes both from its item, never from its row, whose item a table may set after the cell's.
     */
    record Utilization(double now, double[] minute) {
    }

    FleetRow(FleetGpu g) {
        gpu.set(g);
    }

    /**
     * Takes the newest reading; a GPU whose source is lost shows no values (never the last good ones), "no data since"
     * the time of its last reading, and its source's error.
     */
    void update(GpuFleet fleet, I18n i18n, long nowMillis) {
        FleetGpu g = gpu.get();
        List<GpuSample> recent = fleet.recent(g.id(), nowMillis - SPARK_MILLIS);
        GpuSample last = recent.isEmpty() ? null : recent.get(recent.size() - 1);
        Optional<NoData> none = NoData.of(fleet, g);
        GpuSample s = none.isPresent() ? null : fleet.latest(g.id()).orElse(null);
        set(temperature, s, GpuMetric.TEMPERATURE_C);
        set(power, s, GpuMetric.POWER_W);
        set(limit, s, GpuMetric.POWER_LIMIT_W);
        if (s != null && s.has(GpuMetric.MEMORY_TOTAL_MIB)) {
            vram.set(s.raw(GpuMetric.MEMORY_TOTAL_MIB));
        }
        String src = s == null ? none.map(n -> n.since().map(t -> i18n.get("monitor.fleet.noDataSince",
                MonitorText.clock(t))).orElse(i18n.get("monitor.fleet.lost"))).orElse("") : MonitorText.source(i18n, s);
        // the error first: the source column's cell reads it when the text changes
        String why = none.map(NoData::problem).orElse("");
        if (!why.equals(problem.get())) {
            problem.set(why);
        }
        if (!src.equals(source.get())) {
            source.set(src);
        }
        Utilization u = utilization.get();
        double now = s == null ? Double.NaN : s.raw(GpuMetric.UTILIZATION_PCT);
        double[] minute = u.minute();
        long newest = last == null ? 0 : last.timeMillis();
        if (newest != sparkUntil) {
            sparkUntil = newest;
            minute = new double[recent.size()];
            for (int i = 0; i < minute.length; i++) {
                minute[i] = recent.get(i).raw(GpuMetric.UTILIZATION_PCT);
            }
        }
        if (Double.compare(u.now(), now) != 0 || u.minute() != minute) {
            utilization.set(new Utilization(now, minute));
        }
    }

    private static void set(ReadOnlyDoubleWrapper p, GpuSample s, GpuMetric m) {
        double v = s == null ? Double.NaN : s.raw(m);
        if (Double.compare(v, p.get()) != 0) {
            p.set(v);
        }
    }

    void gpu(FleetGpu g) {
        if (!g.equals(gpu.get())) {
            gpu.set(g);
        }
    }

    FleetGpu gpu() {
        return gpu.get();
    }

    ReadOnlyObjectProperty<FleetGpu> gpuProperty() {
        return gpu.getReadOnlyProperty();
    }

    ReadOnlyDoubleProperty temperature() {
        return temperature.getReadOnlyProperty();
    }

    ReadOnlyDoubleProperty power() {
        return power.getReadOnlyProperty();
    }

    ReadOnlyDoubleProperty limit() {
        return limit.getReadOnlyProperty();
    }

    ReadOnlyObjectProperty<Utilization> utilization() {
        return utilization.getReadOnlyProperty();
    }

    ReadOnlyDoubleProperty vram() {
        return vram.getReadOnlyProperty();
    }

    ReadOnlyStringProperty source() {
        return source.getReadOnlyProperty();
    }

    ReadOnlyStringProperty problem() {
        return problem.getReadOnlyProperty();
    }

    /** What the filter matches: model, host, connection, address, VM, containers, driver. */
    boolean matches(String filter) {
        if (filter == null || filter.isBlank()) {
            return true;
        }
        FleetGpu g = gpu.get();
        String all = String.join(" ", g.model(), g.host(), g.connection(), g.address().orElse(""), g.vm().orElse(""),
                g.containers().stream().map(c -> "ct " + c.vmid() + " " + c.name()).collect(Collectors.joining(" ")),
                g.driver().orElse(""), source.get()).toLowerCase(Locale.ROOT);
        for (String word : filter.toLowerCase(Locale.ROOT).split("\\s+")) {
            if (!all.contains(word)) {
                return false;
            }
        }
        return true;
    }
}
