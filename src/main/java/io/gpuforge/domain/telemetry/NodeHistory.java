package io.gpuforge.domain.telemetry;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What a node recorded over a time frame (Proxmox VE's round-robin database): CPU use, memory, and network
 * traffic, one point per step, oldest first. A value the node did not record for a step is empty (a gap).
 */
public record NodeHistory(String node, Timeframe timeframe, List<Point> points) {

    /** The spans a hypervisor keeps history for. */
    public enum Timeframe {
        HOUR, DAY, WEEK, MONTH, YEAR;

        /** PVE's name ({@code hour}, {@code day}…). */
        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * @param cpu 0..1 of all CPUs
     * @param netIn bytes per second received, averaged over the step
     * @param netOut bytes per second sent
     */
    public record Point(Instant time, OptionalDouble cpu, OptionalLong memoryUsedBytes, OptionalLong memoryTotalBytes,
                        OptionalDouble netIn, OptionalDouble netOut) {
        public Point {
            Objects.requireNonNull(time);
            Objects.requireNonNull(cpu);
            Objects.requireNonNull(memoryUsedBytes);
            Objects.requireNonNull(memoryTotalBytes);
            Objects.requireNonNull(netIn);
            Objects.requireNonNull(netOut);
        }
    }

    public NodeHistory {
        Objects.requireNonNull(node);
        Objects.requireNonNull(timeframe);
        points = List.copyOf(points);
    }
}
