package io.gpuforge.domain.telemetry;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What the GPUs cost over a window, per GPU, VM and node and in total: the energy and its price under the tariff,
 * the hardware's depreciation over the window, the total cost of ownership per measured GPU-hour, and what the same
 * GPU-hours would have cost in the cloud (where a cloud price was given).
 */
public record CostReport(Instant from, Instant to, CostProfile profile, List<Line> gpus, List<Line> vms,
                         List<Line> nodes, Line total) {

    /**
     * One GPU, VM, node or the total. {@code gpuHours} is the time the GPUs were measured; {@code windowGpuHours}
     * the window times the GPUs (the hardware costs whether it is used or not); {@code gaps} what was not measured.
     */
    public record Line(String key, String label, double kwh, double energyCost, double gpuHours,
                       double windowGpuHours, double hardwareCost, Duration gaps, OptionalDouble cloudCost) {
        public Line {
            Objects.requireNonNull(key);
            Objects.requireNonNull(label);
            Objects.requireNonNull(gaps);
            Objects.requireNonNull(cloudCost);
        }

        public double totalCost() {
            return energyCost + hardwareCost;
        }

        /** Energy and hardware per measured GPU-hour; empty when nothing was measured. */
        public OptionalDouble costPerGpuHour() {
            return gpuHours > 0 ? OptionalDouble.of(totalCost() / gpuHours) : OptionalDouble.empty();
        }

        /** What the cloud would have cost more (negative: less) than running the GPUs here. */
        public OptionalDouble savings() {
            return cloudCost.isPresent() ? OptionalDouble.of(cloudCost.getAsDouble() - totalCost())
                    : OptionalDouble.empty();
        }
    }

    public CostReport {
        Objects.requireNonNull(from);
        Objects.requireNonNull(to);
        Objects.requireNonNull(profile);
        gpus = List.copyOf(gpus);
        vms = List.copyOf(vms);
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(total);
    }

    public String currency() {
        return profile.currency();
    }
}
