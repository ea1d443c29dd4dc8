package io.gpuforge.ui.monitor;

import io.gpuforge.domain.telemetry.GpuMetric;
import java.util.List;
import java.util.Locale;

/** The monitor's charts: which metric each draws (solid), which as a dashed limit, its unit and value range. */
enum ChartKind {
    TEMPERATURE(GpuMetric.TEMPERATURE_C, null, "°C", Double.NaN, Double.NaN),
    POWER(GpuMetric.POWER_W, GpuMetric.POWER_LIMIT_W, "W", 0, Double.NaN),
    UTILIZATION(GpuMetric.UTILIZATION_PCT, null, "%", 0, 100),
    MEMORY(GpuMetric.MEMORY_USED_MIB, GpuMetric.MEMORY_TOTAL_MIB, "MiB", 0, Double.NaN),
    FAN(GpuMetric.FAN_PCT, null, "%", 0, 100),
    CLOCKS(GpuMetric.SM_CLOCK_MHZ, GpuMetric.MEMORY_CLOCK_MHZ, "MHz", 0, Double.NaN);

    final GpuMetric main;
    final GpuMetric dashed;
    final String unit;
    final double min;
    final double max;

    ChartKind(GpuMetric main, GpuMetric dashed, String unit, double min, double max) {
        this.main = main;
        this.dashed = dashed;
        this.unit = unit;
        this.min = min;
        this.max = max;
    }

    List<GpuMetric> metrics() {
        return dashed == null ? List.of(main) : List.of(main, dashed);
    }

    /** The chart's title key. */
    String titleKey() {
        switch (this) {
            case TEMPERATURE:
                return "monitor.chart.temperature";
            case POWER:
                return "monitor.chart.power";
            case UTILIZATION:
                return "monitor.chart.utilization";
            case MEMORY:
                return "monitor.chart.memory";
            case FAN:
                return "monitor.chart.fan";
            default:
                return "monitor.chart.clocks";
        }
    }

    String id() {
        return "chart-" + name().toLowerCase(Locale.ROOT);
    }
}
