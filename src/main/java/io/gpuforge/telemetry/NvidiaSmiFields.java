package io.gpuforge.telemetry;

import io.gpuforge.domain.telemetry.GpuMetric;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code --query-gpu} fields GPUForge asks {@code nvidia-smi} for, and what each becomes. Drivers differ: a
 * field an older driver does not know makes {@code nvidia-smi} refuse the whole query, so a field has
 * alternatives (the pre-R535 name first tried after the new one) and a query can drop the fields a driver
 * refused. Immutable.
 */
public final class NvidiaSmiFields {

    /** A column: the names a driver may know it by (newest first), and the metric it fills (empty for ids). */
    record Field(List<String> names, Optional<GpuMetric> metric) {
    }

    static final String INDEX = "index";
    static final String UUID = "uuid";
    static final String NAME = "name";
    static final String BUS_ID = "pci.bus_id";

    private static final List<Field> ALL = List.of(
            new Field(List.of(INDEX), Optional.empty()),
            new Field(List.of(NAME), Optional.empty()),
            new Field(List.of("temperature.gpu"), Optional.of(GpuMetric.TEMPERATURE_C)),
            new Field(List.of("power.draw"), Optional.of(GpuMetric.POWER_W)),
            new Field(List.of(UUID), Optional.empty()),
            new Field(List.of(BUS_ID), Optional.empty()),
            new Field(List.of("temperature.memory"), Optional.of(GpuMetric.MEMORY_TEMPERATURE_C)),
            new Field(List.of("enforced.power.limit", "power.limit"), Optional.of(GpuMetric.POWER_LIMIT_W)),
            new Field(List.of("power.min_limit"), Optional.of(GpuMetric.POWER_MIN_LIMIT_W)),
            new Field(List.of("power.max_limit"), Optional.of(GpuMetric.POWER_MAX_LIMIT_W)),
            new Field(List.of("utilization.gpu"), Optional.of(GpuMetric.UTILIZATION_PCT)),
            new Field(List.of("utilization.memory"), Optional.of(GpuMetric.MEMORY_UTILIZATION_PCT)),
            new Field(List.of("memory.used"), Optional.of(GpuMetric.MEMORY_USED_MIB)),
            new Field(List.of("memory.total"), Optional.of(GpuMetric.MEMORY_TOTAL_MIB)),
            new Field(List.of("fan.speed"), Optional.of(GpuMetric.FAN_PCT)),
            new Field(List.of("clocks.current.sm", "clocks.sm"), Optional.of(GpuMetric.SM_CLOCK_MHZ)),
            new Field(List.of("clocks.current.memory", "clocks.mem"), Optional.of(GpuMetric.MEMORY_CLOCK_MHZ)),
            new Field(List.of("clocks_event_reasons.active", "clocks_throttle_reasons.active"),
                    Optional.of(GpuMetric.THROTTLE_REASONS)));

    /** For each field, which of its names is asked (index into names), or -1 when the driver refused all. */
    private final int[] choice;

    private NvidiaSmiFields(int[] choice) {
        this.choice = choice;
    }

    /** Every field, by its newest name. */
    public static NvidiaSmiFields all() {
        return new NvidiaSmiFields(new int[ALL.size()]);
    }

    /** The names in the order asked ({@code index,name,temperature.gpu,…}). */
    public List<String> asked() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ALL.size(); i++) {
            if (choice[i] >= 0) {
                out.add(ALL.get(i).names().get(choice[i]));
            }
        }
        return out;
    }

    public String queryArgument() {
        return String.join(",", asked());
    }

    /** The metric of each asked column, by position (absent for the id columns). */
    Map<String, Optional<GpuMetric>> columns() {
        Map<String, Optional<GpuMetric>> m = new LinkedHashMap<>();
        for (int i = 0; i < ALL.size(); i++) {
            if (choice[i] >= 0) {
                m.put(ALL.get(i).names().get(choice[i]), ALL.get(i).metric());
            }
        }
        return m;
    }

    /**
     * The same query without the refused name: the field's next alternative, or no such column. Empty when the
     * name was not asked (nothing to learn) or the field is an id column GPUForge cannot do without.
     */
    public Optional<NvidiaSmiFields> without(String refused) {
        for (int i = 0; i < ALL.size(); i++) {
            if (choice[i] >= 0 && ALL.get(i).names().get(choice[i]).equals(refused)) {
                if (ALL.get(i).names().get(0).equals(INDEX)) {
                    return Optional.empty();
                }
                int[] next = choice.clone();
                next[i] = choice[i] + 1 < ALL.get(i).names().size() ? choice[i] + 1 : -1;
                return Optional.of(new NvidiaSmiFields(next));
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return queryArgument();
    }
}
