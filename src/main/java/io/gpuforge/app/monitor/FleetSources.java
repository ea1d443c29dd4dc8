package io.gpuforge.app.monitor;

import io.gpuforge.domain.telemetry.SourceStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fleet's sources: the last status of each source a connection is read through, and each connection that cannot
 * be read, with why (one problem a connection, the newest). Thread-safe.
 */
final class FleetSources {

    private final Map<String, GpuFleet.Source> byKey = new ConcurrentHashMap<>();

    /** A connection that cannot be read ({@code ""}: the saved connections themselves). */
    void problem(String connection, String message, TelemetryService.Failure.Reason reason) {
        byKey.put(connection + "\u0000problem", new GpuFleet.Source(connection, Optional.empty(), Optional.of(message),
                reason));
    }

    /** A source's new status. */
    void status(String connection, SourceStatus st) {
        byKey.put(connection + "\u0000" + st.source().host() + st.source().description(),
                new GpuFleet.Source(connection, Optional.of(st), st.problem(), TelemetryService.Failure.Reason.OTHER));
    }

    /** Every source and problem, by connection. */
    List<GpuFleet.Source> all() {
        List<GpuFleet.Source> out = new ArrayList<>(byKey.values());
        out.sort((a, b) -> a.connection().compareTo(b.connection()));
        return out;
    }

    void clear() {
        byKey.clear();
    }
}
