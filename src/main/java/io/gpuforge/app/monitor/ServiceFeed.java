package io.gpuforge.app.monitor;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceInfo;
import io.gpuforge.store.HistoryFollower;
import io.gpuforge.store.StoreException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The fleet's readings while gpuforge serve samples into the same store: what it wrote since the last look, read
 * every interval, instead of a second watch on the same GPUs. A watch like the others for the fleet: closing it stops
 * the reads.
 */
final class ServiceFeed implements TelemetryService.Watch {

    private final HistoryFollower follower;
    private final Consumer<GpuSample> samples;
    private final Consumer<String> problem;
    private final ScheduledFuture<?> reads;
    private final AtomicBoolean busy = new AtomicBoolean();
    private volatile boolean closed;

    ServiceFeed(HistoryFollower follower, Duration interval, ScheduledExecutorService timer, Executor background,
                Consumer<GpuSample> samples, Consumer<String> problem) {
        this.follower = follower;
        this.samples = samples;
        this.problem = problem;
        long every = Math.max(250, interval.toMillis());
        this.reads = timer.scheduleWithFixedDelay(() -> {
            if (busy.compareAndSet(false, true)) {
                background.execute(this::read);
            }
        }, 0, every, TimeUnit.MILLISECONDS);
    }

    private void read() {
        try {
            if (!closed) {
                follower.next().forEach(s -> {
                    if (!closed) {
                        samples.accept(s);
                    }
                });
            }
        } catch (StoreException | RuntimeException e) {
            problem.accept("Cannot read the service's readings from the store: " + e.getMessage());
        } finally {
            busy.set(false);
        }
    }

    /**
     * The saved connection a reading of the service belongs to: the one its GPU's id names ({@code kind:name/node}),
     * else the one whose listed GPUs it matches (a guest agent's, by its VM).
     */
    static Optional<ConnectionInfo> connectionOf(GpuSample s, List<ConnectionInfo> all, List<FleetGpu> rows) {
        for (ConnectionInfo c : all) {
            if (s.gpu().host().startsWith(c.nodeHost(""))) {
                return Optional.of(c);
            }
        }
        for (ConnectionInfo c : all) {
            if (FleetRows.match(rows, s, c) >= 0) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    @Override
    public List<SourceInfo> sources() {
        return List.of();
    }

    @Override
    public void close() {
        closed = true;
        reads.cancel(false);
    }
}
