package io.gpuforge.telemetry;

import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives the sources on the shared {@link TelemetryThreads}: a polled source is asked at each tick of its interval
 * (0.2–10 s; a tick is skipped while the last poll still runs), a streaming source is started once. A source that
 * fails backs off (doubling up to a minute) and its GPUs get a gap marker, so the gap stays a gap.
 */
public final class Sampler implements AutoCloseable {

    public static final Duration MIN_INTERVAL = Duration.ofMillis(200);
    public static final Duration MAX_INTERVAL = Duration.ofSeconds(10);
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(Sampler.class);

    private final TelemetryThreads threads;
    private final Clock clock;
    private final List<Registration> running = new ArrayList<>();

    public Sampler(TelemetryThreads threads, Clock clock) {
        this.threads = threads;
        this.clock = clock;
    }

    public static Duration checkInterval(Duration d) {
        if (d.compareTo(MIN_INTERVAL) < 0 || d.compareTo(MAX_INTERVAL) > 0) {
            throw new IllegalArgumentException("the sampling interval must be between 0.2 and 10 seconds, not "
                    + d.toMillis() / 1000.0 + " s");
        }
        return d;
    }

    /** Starts sampling {@code source}; close the registration to stop (it closes the source too). */
    public synchronized Registration add(GpuSource source, Duration interval, SampleSink sink) {
        checkInterval(interval);
        Registration r = new Registration(source, (int) interval.toMillis(), sink);
        running.add(r);
        r.start();
        return r;
    }

    @Override
    public synchronized void close() {
        new ArrayList<>(running).forEach(Registration::close);
        running.clear();
    }

    /** One source being sampled. */
    public final class Registration implements AutoCloseable {
        private final GpuSource source;
        private final int interval;
        private final SampleSink sink;
        private final Backoff backoff;
        private final AtomicBoolean busy = new AtomicBoolean();
        private final Map<GpuId, GpuSample> known = new LinkedHashMap<>();
        private volatile boolean closed;
        private volatile ScheduledFuture<?> next;
        private volatile boolean failing;

        Registration(GpuSource source, int interval, SampleSink sink) {
            this.source = source;
            this.interval = interval;
            this.sink = sink;
            this.backoff = new Backoff(interval);
        }

        public GpuSource source() {
            return source;
        }

        void start() {
            sink.status(new SourceStatus(source.info(), SourceStatus.State.STARTING, Optional.empty(), Optional.empty(), 0));
            if (source instanceof GpuSource.Streaming) {
                ((GpuSource.Streaming) source).start(interval, sink, threads);
            } else {
                schedule(0);
            }
        }

        private void schedule(long delayMillis) {
            if (!closed) {
                next = threads.timer().schedule(this::tick, delayMillis, TimeUnit.MILLISECONDS);
            }
        }

        private void tick() {
            if (closed) {
                return;
            }
            long started = clock.millis();
            if (!busy.compareAndSet(false, true)) {
                schedule(interval);
                return;
            }
            threads.pool().execute(() -> {
                long wait = interval;
                try {
                    List<GpuSample> samples = ((GpuSource.Polled) source).poll(clock.millis(), interval);
                    if (closed) {
                        return;
                    }
                    samples.forEach(s -> known.put(s.gpu(), s));
                    if (failing || known.isEmpty() && samples.isEmpty()) {
                        LOG.info("{}: reading again", source.info().description());
                    }
                    if (failing) {
                        failing = false;
                    }
                    backoff.reset();
                    sink.samples(samples);
                    sink.status(new SourceStatus(source.info(), SourceStatus.State.OK, Optional.empty(),
                            Optional.empty(), samples.size()));
                    wait = Math.max(0, interval - (clock.millis() - started));
                } catch (SourceException | RuntimeException e) {
                    if (closed) {
                        return;
                    }
                    wait = backoff.failed();
                    failed(e.getMessage() == null ? e.toString() : e.getMessage(), wait);
                    if (e instanceof RuntimeException) {
                        LOG.warn("{} failed unexpectedly", source.info().description(), e);
                    }
                } finally {
                    busy.set(false);
                }
                schedule(wait);
            });
        }

        private void failed(String message, long retryInMillis) {
            if (!failing) {
                LOG.warn("{}: {} (retrying in {} s)", source.info().description(), message, retryInMillis / 1000.0);
            }
            failing = true;
            long now = clock.millis();
            List<GpuSample> gaps = new ArrayList<>();
            for (GpuSample s : known.values()) {
                gaps.add(GpuSample.gap(s.gpu(), now, s.source(), s.name(), interval).toBuilder().node(s.node())
                        .vm(s.vm()).build());
            }
            if (!gaps.isEmpty()) {
                sink.samples(gaps);
            }
            sink.status(new SourceStatus(source.info(), SourceStatus.State.FAILING, Optional.of(message),
                    Optional.of(Instant.ofEpochMilli(now + retryInMillis)), known.size()));
        }

        @Override
        public void close() {
            closed = true;
            ScheduledFuture<?> f = next;
            if (f != null) {
                f.cancel(false);
            }
            source.close();
            sink.status(new SourceStatus(source.info(), SourceStatus.State.STOPPED, Optional.empty(), Optional.empty(),
                    known.size()));
            synchronized (Sampler.this) {
                running.remove(this);
            }
        }
    }
}
