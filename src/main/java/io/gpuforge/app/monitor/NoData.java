package io.gpuforge.app.monitor;

import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuSample;
import java.time.Instant;
import java.util.Optional;

/**
 * A watched GPU whose source is lost (its newest entry is a gap marker): the time of its last reading, when it gave
 * one, and the error its source or connection reports ("" when none is known). What the fleet, the charts' sources and
 * the tree say instead of showing the last values as live.
 */
public record NoData(Optional<Instant> since, String problem) {

    /** {@code g} has no data now, or empty while it reads (or is not watched). */
    public static Optional<NoData> of(GpuFleet fleet, FleetGpu g) {
        Optional<GpuSample> newest = fleet.newest(g.id());
        if (newest.isEmpty() || !newest.get().isGap()) {
            return Optional.empty();
        }
        String why = fleet.sources().stream().filter(x -> x.connection().equals(g.connection()))
                .map(x -> x.problem().orElse("")).filter(x -> !x.isEmpty()).findFirst().orElse("");
        return Optional.of(new NoData(fleet.latest(g.id()).map(s -> Instant.ofEpochMilli(s.timeMillis())), why));
    }
}
