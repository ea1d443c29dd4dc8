package io.gpuforge.telemetry;

import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The latest reading of every GPU as Prometheus metrics, by Prometheus' naming conventions: base units (celsius,
 * watts, bytes, hertz), ratios from 0 to 1, one label {@code gpu} (its telemetry id) on every series, and
 * {@code gpuforge_gpu_info} (value 1) carrying the model, driver, node, VM, connection and holder once per GPU, to be
 * joined with {@code * on(gpu) group_left(...)}. No sample timestamps: Prometheus stamps the scrape.
 */
public final class GpuMetricsCollector implements MultiCollector {

    /**
     * What {@code gpuforge_gpu_info} says of a GPU (empty strings where nothing is known); {@code holder}:
     * {@code vm:ID}, {@code ct:ID[,ct:ID…]}, {@code free} or {@code unknown}, as every command names it.
     */
    public record GpuLabels(String model, String driver, String node, String vm, String connection, String holder) {
        public GpuLabels {
            Objects.requireNonNull(holder);
            Objects.requireNonNull(model);
            Objects.requireNonNull(driver);
            Objects.requireNonNull(node);
            Objects.requireNonNull(vm);
            Objects.requireNonNull(connection);
        }
    }

    /** A metric: its name, help, unit and how a raw reading becomes its value. */
    private record Family(GpuMetric metric, String name, String help, Unit unit, double scale) {
    }

    private static final Unit WATTS = new Unit("watts");
    private static final Unit HERTZ = new Unit("hertz");
    static final List<Family> FAMILIES = List.of(
            new Family(GpuMetric.TEMPERATURE_C, "gpuforge_gpu_temperature_celsius", "GPU temperature",
                    Unit.CELSIUS, 1),
            new Family(GpuMetric.MEMORY_TEMPERATURE_C, "gpuforge_gpu_memory_temperature_celsius", "Memory temperature",
                    Unit.CELSIUS, 1),
            new Family(GpuMetric.POWER_W, "gpuforge_gpu_power_watts", "Power draw", WATTS, 1),
            new Family(GpuMetric.POWER_LIMIT_W, "gpuforge_gpu_power_limit_watts", "Enforced power limit", WATTS, 1),
            new Family(GpuMetric.UTILIZATION_PCT, "gpuforge_gpu_utilization_ratio",
                    "GPU utilisation, 0 to 1 (the share of time a kernel ran)", Unit.RATIO, 0.01),
            new Family(GpuMetric.MEMORY_UTILIZATION_PCT, "gpuforge_gpu_memory_utilization_ratio",
                    "Memory controller utilisation, 0 to 1", Unit.RATIO, 0.01),
            new Family(GpuMetric.MEMORY_USED_MIB, "gpuforge_gpu_memory_used_bytes", "Frame buffer memory used",
                    Unit.BYTES, 1024 * 1024),
            new Family(GpuMetric.MEMORY_TOTAL_MIB, "gpuforge_gpu_memory_total_bytes", "Frame buffer memory in all",
                    Unit.BYTES, 1024 * 1024),
            new Family(GpuMetric.FAN_PCT, "gpuforge_gpu_fan_speed_ratio", "Fan speed, 0 to 1 of its maximum",
                    Unit.RATIO, 0.01),
            new Family(GpuMetric.SM_CLOCK_MHZ, "gpuforge_gpu_sm_clock_hertz", "SM clock", HERTZ, 1e6),
            new Family(GpuMetric.MEMORY_CLOCK_MHZ, "gpuforge_gpu_memory_clock_hertz", "Memory clock", HERTZ, 1e6),
            new Family(GpuMetric.THROTTLE_REASONS, "gpuforge_gpu_clock_event_reasons",
                    "NVML clock event (throttle) reason bits; 0: none", null, 1));

    private final Supplier<Collection<GpuSample>> latest;
    private final Supplier<Map<GpuId, GpuLabels>> info;

    public GpuMetricsCollector(Supplier<Collection<GpuSample>> latest, Supplier<Map<GpuId, GpuLabels>> info) {
        this.latest = latest;
        this.info = info;
    }

    /** The names of every metric this serves (the dashboard's check: panels name only these). */
    public static List<String> names() {
        List<String> out = new ArrayList<>(FAMILIES.stream().map(Family::name).toList());
        out.add("gpuforge_gpu_throttled");
        out.add("gpuforge_gpu_last_reading_timestamp_seconds");
        out.add("gpuforge_gpu_info");
        return out;
    }

    @Override
    public MetricSnapshots collect() {
        Map<GpuId, GpuSample> byGpu = new LinkedHashMap<>();
        for (GpuSample s : latest.get()) {
            if (!s.isGap()) {
                byGpu.merge(s.gpu(), s, (a, b) -> a.timeMillis() >= b.timeMillis() ? a : b);
            }
        }
        List<MetricSnapshot> out = new ArrayList<>();
        for (Family f : FAMILIES) {
            GaugeSnapshot.Builder g = GaugeSnapshot.builder().name(f.name()).help(f.help());
            if (f.unit() != null) {
                g.unit(f.unit());
            }
            boolean any = false;
            for (GpuSample s : byGpu.values()) {
                if (s.has(f.metric())) {
                    g.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(Labels.of("gpu", s.gpu()
                            .toString())).value(s.raw(f.metric()) * f.scale()).build());
                    any = true;
                }
            }
            if (any) {
                out.add(g.build());
            }
        }
        GaugeSnapshot.Builder throttled = GaugeSnapshot.builder().name("gpuforge_gpu_throttled").help("1 while a"
                + " power cap, thermal or hardware slowdown holds the clocks down (the alert rules' throttling), else 0");
        GaugeSnapshot.Builder last = GaugeSnapshot.builder().name("gpuforge_gpu_last_reading_timestamp_seconds")
                .help("When the GPU was last read (a source that stops answering keeps its last values: compare"
                        + " with time())").unit(Unit.SECONDS);
        boolean anyThrottle = false;
        for (GpuSample s : byGpu.values()) {
            Labels l = Labels.of("gpu", s.gpu().toString());
            if (s.has(GpuMetric.THROTTLE_REASONS)) {
                throttled.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(l).value(
                        ((long) s.raw(GpuMetric.THROTTLE_REASONS) & AlertEvaluator.THROTTLING_BITS) != 0 ? 1 : 0)
                        .build());
                anyThrottle = true;
            }
            last.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(l).value(s.timeMillis() / 1000.0)
                    .build());
        }
        if (anyThrottle) {
            out.add(throttled.build());
        }
        if (!byGpu.isEmpty()) {
            out.add(last.build());
        }
        Map<GpuId, GpuLabels> labels = info.get();
        InfoSnapshot.Builder i = InfoSnapshot.builder().name("gpuforge_gpu").help("What is known of each GPU: model,"
                + " driver, node, VM, connection and holder (vm:ID, ct:ID, free, unknown; value 1)");
        for (GpuSample s : byGpu.values()) {
            GpuLabels l = labels.getOrDefault(s.gpu(), new GpuLabels(s.name(), "", s.node().orElse(""),
                    s.vm().orElse(""), "", "unknown"));
            i.dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder().labels(Labels.of("gpu", s.gpu().toString(),
                    "model", l.model().isEmpty() ? s.name() : l.model(), "driver", l.driver(), "node",
                    l.node().isEmpty() ? s.node().orElse("") : l.node(), "vm", l.vm().isEmpty() ? s.vm().orElse("")
                    : l.vm(), "connection", l.connection(), "holder", l.holder())).build());
        }
        if (!byGpu.isEmpty()) {
            out.add(i.build());
        }
        return new MetricSnapshots(out);
    }
}
