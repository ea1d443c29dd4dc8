package io.gpuforge.domain.telemetry;

import java.util.Arrays;
import java.util.Locale;

/**
 * What a GPU reading measures, with its unit. The JSON name is the one {@code gpuforge gpu watch --json} prints
 * and the store keeps; the order is the order of the store's encoding (append, never reorder).
 */
public enum GpuMetric {
    TEMPERATURE_C("temperature_c", "°C"),
    MEMORY_TEMPERATURE_C("memory_temperature_c", "°C"),
    POWER_W("power_w", "W"),
    POWER_LIMIT_W("power_limit_w", "W"),
    POWER_MIN_LIMIT_W("power_min_limit_w", "W"),
    POWER_MAX_LIMIT_W("power_max_limit_w", "W"),
    UTILIZATION_PCT("utilization_pct", "%"),
    MEMORY_UTILIZATION_PCT("memory_utilization_pct", "%"),
    MEMORY_USED_MIB("memory_used_mib", "MiB"),
    MEMORY_TOTAL_MIB("memory_total_mib", "MiB"),
    FAN_PCT("fan_pct", "%"),
    SM_CLOCK_MHZ("sm_clock_mhz", "MHz"),
    MEMORY_CLOCK_MHZ("memory_clock_mhz", "MHz"),
    /** NVML's clock-event (throttle) reason bits; 0 = none. */
    THROTTLE_REASONS("throttle_reasons", ""),
    SLOWDOWN_TEMP_C("slowdown_temperature_c", "°C"),
    SHUTDOWN_TEMP_C("shutdown_temperature_c", "°C");

    private static final GpuMetric[] ALL = values();
    private final String json;
    private final String unit;

    GpuMetric(String json, String unit) {
        this.json = json;
        this.unit = unit;
    }

    public String json() {
        return json;
    }

    public String unit() {
        return unit;
    }

    public static int count() {
        return ALL.length;
    }

    public static GpuMetric of(int ordinal) {
        return ALL[ordinal];
    }

    public static GpuMetric fromJson(String name) {
        for (GpuMetric m : ALL) {
            if (m.json.equals(name) || m.name().equalsIgnoreCase(name.replace('-', '_'))) {
                return m;
            }
        }
        throw new IllegalArgumentException("not a GPU metric: '" + name + "' (known: "
                + Arrays.stream(ALL).map(GpuMetric::json).toList() + ")");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
