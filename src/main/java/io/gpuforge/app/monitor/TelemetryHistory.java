package io.gpuforge.app.monitor;

import io.gpuforge.domain.telemetry.EnergyReport;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.ReducedSeries;
import io.gpuforge.domain.telemetry.SeriesKey;
import io.gpuforge.domain.telemetry.Tariff;
import io.gpuforge.store.HistoryFollower;
import io.gpuforge.store.StoreException;
import io.gpuforge.store.TelemetryQueries;
import io.gpuforge.store.TelemetryStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stored side of GPU telemetry, {@link TelemetryService}'s job of keeping: samples written in batches, rolled up
 * and pruned (unless a service does it for this store), and read back as history reduced to a chart's width, energy
 * over a window, the GPUs seen and a service's newest rows. Blocking: off the FX thread.
 */
public final class TelemetryHistory {

    private static final Logger LOG = LoggerFactory.getLogger(TelemetryHistory.class);

    private final TelemetryStore store;
    private final TelemetryQueries queries;
    private volatile boolean following;

    TelemetryHistory(TelemetryStore store) {
        this.store = store;
        this.queries = new TelemetryQueries(store);
    }

    /** History reduced to at most {@code points} points per series (what a chart of that width draws). */
    public List<ReducedSeries> reduced(List<SeriesKey> keys, Instant from, Instant to, int points)
            throws TelemetryService.Failure {
        try {
            flushQuietly();
            return queries.reduced(keys, from, to, points);
        } catch (StoreException | IllegalArgumentException e) {
            throw new TelemetryService.Failure("Cannot read the GPU history: " + e.getMessage(), e);
        }
    }

    /** Energy per GPU, VM and node over a window, gaps left out and reported; the cost with a tariff. */
    public EnergyReport energy(Instant from, Instant to, Optional<Tariff> tariff) throws TelemetryService.Failure {
        try {
            flushQuietly();
            return queries.energy(from, to, tariff, r -> true);
        } catch (StoreException | IllegalArgumentException e) {
            throw new TelemetryService.Failure("Cannot compute the energy: " + e.getMessage(), e);
        }
    }

    /** The GPUs telemetry has stored, newest first. */
    public List<GpuId> knownGpus() throws TelemetryService.Failure {
        try {
            return store.series().all().stream().sorted((a, b) -> Long.compare(b.lastMillis(), a.lastMillis()))
                    .map(r -> r.gpu()).toList();
        } catch (StoreException e) {
            throw new TelemetryService.Failure("Cannot read the stored GPUs: " + e.getMessage(), e);
        }
    }

    /** The newest samples a service writes into this store, from {@code fromMillis} on (see HistoryFollower). */
    public HistoryFollower follower(long fromMillis) {
        return store.follower(fromMillis);
    }

    /** Readings (not gaps) written to the store since it was opened. */
    public long samplesWritten() {
        return store.written();
    }

    /**
     * Whether a service (gpuforge serve) writes this store while the window reads it: then it rolls up and prunes,
     * and this process does not do the same work a second time.
     */
    public void following(boolean following) {
        this.following = following;
    }

    /** Writes queued samples now (tests, and before queries). */
    public void flushQuietly() {
        try {
            store.flush();
        } catch (StoreException e) {
            LOG.warn("GPU samples could not be written; they are kept for the next try only in memory", e);
        }
    }

    void rollUpQuietly() {
        if (following) {
            return;
        }
        try {
            store.rollUpAndPrune();
        } catch (StoreException e) {
            LOG.warn("GPU telemetry rollup or retention failed; it is tried again in a minute", e);
        }
    }
}
