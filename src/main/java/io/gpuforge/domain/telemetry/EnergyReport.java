package io.gpuforge.domain.telemetry;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Energy over a window: the integral of power over time per GPU, summed per VM and per node. Times without
 * readings (gaps) are left out, never guessed, and reported: {@code covered} is the time that was measured,
 * {@code gaps} the time that was not. {@code cost} is there when a tariff was given.
 */
public record EnergyReport(Instant from, Instant to, List<Line> gpus, List<Line> vms, List<Line> nodes, Line total,
                           Optional<String> currency) {

    /** One GPU, VM, node or the total. */
    public record Line(String key, String label, double joules, Duration covered, Duration gaps,
                       Optional<Double> cost) {
        public Line {
            Objects.requireNonNull(key);
            Objects.requireNonNull(label);
            Objects.requireNonNull(covered);
            Objects.requireNonNull(gaps);
            Objects.requireNonNull(cost);
        }

        public double kilowattHours() {
            return joules / 3.6e6;
        }
    }

    public EnergyReport {
        Objects.requireNonNull(from);
        Objects.requireNonNull(to);
        gpus = List.copyOf(gpus);
        vms = List.copyOf(vms);
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(total);
        Objects.requireNonNull(currency);
    }
}
