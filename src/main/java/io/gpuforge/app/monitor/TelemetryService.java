package io.gpuforge.app.monitor;

import io.gpuforge.app.host.HostAccess;
import io.gpuforge.app.host.KnownHosts;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.GpuTarget;
import io.gpuforge.domain.telemetry.SourceInfo;
import io.gpuforge.domain.telemetry.SourceStatus;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.store.Database;
import io.gpuforge.store.TelemetryStore;
import io.gpuforge.telemetry.GpuSource;
import io.gpuforge.telemetry.SampleSink;
import io.gpuforge.telemetry.Sampler;
import io.gpuforge.telemetry.SimulatedGpuSource;
import io.gpuforge.telemetry.TelemetryThreads;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GPU telemetry for the window and the CLI: watch a target's GPUs live (every sample is also stored), read them
 * once, and the newest reading of each. Its other jobs stand apart, each reached from here: what is stored
 * ({@link TelemetryHistory}: history, energy; samples written in batches once a second, rolled up and pruned every
 * minute), power limits ({@link PowerLimitService}) and the Prometheus endpoint ({@link PrometheusExport}). All
 * sources run on one shared pool. Blocking calls: off the FX thread.
 */
public final class TelemetryService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TelemetryService.class);

    /** What went wrong, for the user. */
    public static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        /** What kind of failure it is, where the window words it itself; {@code OTHER}: its message says it. */
        public enum Reason { OTHER, NO_LOCAL_SOURCE }

        private final Reason reason;

        public Failure(String message) {
            this(Reason.OTHER, message);
        }

        public Failure(Reason reason, String message) {
            super(message);
            this.reason = reason;
        }

        public Reason reason() {
            return reason;
        }

        public Failure(String message, Throwable cause) {
            super(message, cause);
            this.reason = Reason.OTHER;
        }
    }

    /**
     * A watch's samples as their sources read them: {@code wholeRound} when the batch is one reading of every GPU of
     * {@code source} (a polled source), else a part of one (a stream's line); gaps (a failing source) included.
     * Called on a telemetry thread.
     */
    @FunctionalInterface
    public interface Batches {
        void batch(SourceInfo source, boolean wholeRound, List<GpuSample> samples);
    }

    /** A running watch; closing it stops its sources. */
    public interface Watch extends AutoCloseable {
        List<SourceInfo> sources();

        @Override
        void close();
    }

    private final TelemetryThreads threads = new TelemetryThreads();
    private final Clock clock;
    private final Sampler sampler;
    private final TelemetryStore store;
    private final TelemetryHistory history;
    private final TelemetrySources sources;
    private final Map<GpuId, GpuSample> latest = new ConcurrentHashMap<>();
    private final List<Watch> watches = new CopyOnWriteArrayList<>();
    private final DemoSimulations demo;
    private final PowerLimitService power;
    private final PrometheusExport prometheus;

    /** Hosts over SSH only as the CLI names them, checked against {@code knownHosts} (nothing saved behind it). */
    public TelemetryService(Database db, Sessions sessions, Path knownHosts, Clock clock) {
        this(db, sessions, unsaved(knownHosts), clock);
    }

    /** Hosts over SSH through {@code hosts}: named on the spot, saved SSH hosts, and the hosts linked to nodes. */
    public TelemetryService(Database db, Sessions sessions, HostAccess hosts, Clock clock) {
        this(db, sessions, hosts, clock, TelemetrySources.Tools.system(), TelemetryStore.Retention.defaults());
    }

    public TelemetryService(Database db, Sessions sessions, HostAccess hosts, Clock clock, TelemetrySources.Tools tools,
                     TelemetryStore.Retention retention) {
        this.clock = clock;
        this.sampler = new Sampler(threads, clock);
        this.store = new TelemetryStore(db, clock, retention);
        this.history = new TelemetryHistory(store);
        this.sources = new TelemetrySources(tools, threads, sessions, hosts, clock);
        this.demo = new DemoSimulations(clock);
        this.power = new PowerLimitService(sources, demo, this::read, clock);
        this.prometheus = new PrometheusExport(this::latest);
        threads.timer().scheduleWithFixedDelay(() -> threads.pool().execute(history::flushQuietly), 1, 1,
                TimeUnit.SECONDS);
        threads.timer().scheduleWithFixedDelay(() -> threads.pool().execute(history::rollUpQuietly), 60, 60,
                TimeUnit.SECONDS);
    }

    /** For tests: NVML and nvidia-smi from the given places. */
    public static TelemetryService withTools(Database db, Sessions sessions, Path knownHosts, Clock clock,
                                             Optional<String> nvml, String nvidiaSmi) {
        return new TelemetryService(db, sessions, unsaved(knownHosts), clock,
                new TelemetrySources.Tools(nvml, nvidiaSmi), TelemetryStore.Retention.defaults());
    }

    private static HostAccess unsaved(Path knownHosts) {
        return new HostAccess(Optional.empty(), null, null, null, new KnownHosts(knownHosts));
    }

    /**
     * Reads a target's GPUs every {@code interval} until closed: each sample goes to {@code samples} (on a telemetry
     * thread; hop to your own), to the store and to {@link #latest()}; source changes go to {@code status}.
     */
    public Watch watch(GpuTarget target, Duration interval, Consumer<GpuSample> samples, Consumer<SourceStatus> status)
            throws Failure {
        Sampler.checkInterval(interval);
        return watch(sources.open(target), interval, (src, whole, b) -> b.forEach(samples), status);
    }

    /** As {@link #watch(GpuTarget, Duration, Consumer, Consumer)}, the samples a source's batch at a time. */
    public Watch watchBatches(GpuTarget target, Duration interval, Batches batches, Consumer<SourceStatus> status)
            throws Failure {
        Sampler.checkInterval(interval);
        return watch(sources.open(target), interval, batches, status);
    }

    /** As {@link #watch(ConnectionSession, Optional, Duration, Consumer, Consumer)}, a source's batch at a time. */
    public Watch watchBatches(ConnectionSession session, Optional<VmRef> vm, Duration interval, Batches batches,
                              Consumer<SourceStatus> status) throws Failure {
        Sampler.checkInterval(interval);
        return watch(sources.open(session, vm), interval, batches, status);
    }

    /**
     * Like {@link #watch(GpuTarget, Duration, Consumer, Consumer)} for a hypervisor session the caller holds (one
     * named on the spot: {@code --pve URL}, {@code --libvirt URI}): the GPUs inside {@code vm}, or inside every running
     * VM of it that has one. The session stays the caller's: closing the watch does not close it.
     */
    public Watch watch(ConnectionSession session, Optional<VmRef> vm, Duration interval, Consumer<GpuSample> samples,
                       Consumer<SourceStatus> status) throws Failure {
        Sampler.checkInterval(interval);
        return watch(sources.open(session, vm), interval, (src, whole, b) -> b.forEach(samples), status);
    }

    private Watch watch(TelemetrySources.Opened opened, Duration interval, Batches batches,
                        Consumer<SourceStatus> status) {
        List<Sampler.Registration> regs = new ArrayList<>();
        List<SimulatedGpuSource> sims = new ArrayList<>();
        for (GpuSource s : opened.sources()) {
            boolean whole = s instanceof GpuSource.Polled;
            SampleSink sink = new StoringSink(latest, store, () -> threads.pool().execute(history::flushQuietly),
                    b -> batches.batch(s.info(), whole, b), status);
            if (s instanceof SimulatedGpuSource) {
                demo.started((SimulatedGpuSource) s);
                sims.add((SimulatedGpuSource) s);
            }
            regs.add(sampler.add(s, interval, sink));
        }
        Watch w = new Watch() {
            @Override
            public List<SourceInfo> sources() {
                return opened.sources().stream().map(GpuSource::info).toList();
            }

            @Override
            public void close() {
                sims.forEach(demo::stopped);
                regs.forEach(Sampler.Registration::close);
                for (AutoCloseable h : opened.held()) {
                    try {
                        h.close();
                    } catch (Exception e) {
                        LOG.debug("closing {} failed", h, e);
                    }
                }
                watches.remove(this);
                history.flushQuietly();
            }
        };
        watches.add(w);
        return w;
    }

    /**
     * The Demo lab only: unplugs (or plugs in again) the simulated sensors of every running simulation, so that a
     * lost source can be shown: its GPUs get gaps and the "source lost" alerts fire. Returns how many GPUs it holds.
     */
    public int simulateSensorLoss(boolean lost) {
        return demo.sensorLoss(lost);
    }

    /** One reading of each GPU of a target (waits for the first full round, at most {@code wait}). */
    public List<GpuSample> read(GpuTarget target, Duration wait) throws Failure, InterruptedException {
        return read(() -> sources.open(target), wait);
    }

    /** One reading of each GPU behind a hypervisor session the caller holds (see {@link #watch(ConnectionSession,
     * Optional, Duration, Consumer, Consumer)}). */
    public List<GpuSample> read(ConnectionSession session, Optional<VmRef> vm, Duration wait)
            throws Failure, InterruptedException {
        return read(() -> sources.open(session, vm), wait);
    }

    private interface Opener {
        TelemetrySources.Opened open() throws Failure;
    }

    private List<GpuSample> read(Opener opener, Duration wait) throws Failure, InterruptedException {
        Map<GpuId, GpuSample> got = new ConcurrentHashMap<>();
        List<String> problems = new CopyOnWriteArrayList<>();
        long deadline = System.nanoTime() + wait.toNanos();
        try (Watch w = watch(opener.open(), Sampler.DEFAULT_INTERVAL, (src, whole, b) -> b.forEach(s -> {
            if (!s.isGap()) {
                got.putIfAbsent(s.gpu(), s);
            }
        }), st -> st.problem().ifPresent(problems::add))) {
            int stable = 0;
            int last = -1;
            while (System.nanoTime() < deadline && (got.isEmpty() || stable < 3) && (problems.isEmpty() || !got.isEmpty())) {
                Thread.sleep(100);
                stable = got.size() == last ? stable + 1 : 0;
                last = got.size();
            }
        }
        if (got.isEmpty()) {
            throw new Failure(problems.isEmpty() ? "No GPU reading arrived within " + wait.toSeconds() + " s"
                    : problems.get(0));
        }
        List<GpuSample> out = new ArrayList<>(got.values());
        out.sort((a, b) -> a.gpu().toString().compareTo(b.gpu().toString()));
        return out;
    }

    /** The newest sample of every GPU seen by a running watch. */
    public Collection<GpuSample> latest() {
        return List.copyOf(latest.values());
    }

    /** The stored side: history, energy, the GPUs seen, a service's newest rows. */
    public TelemetryHistory history() {
        return history;
    }

    /** Setting power limits, now and kept after reboots. */
    public PowerLimitService powerLimits() {
        return power;
    }

    /** The Prometheus endpoint, started on demand. */
    public PrometheusExport prometheus() {
        return prometheus;
    }

    @Override
    public void close() {
        watches.forEach(Watch::close);
        prometheus.close();
        sampler.close();
        history.flushQuietly();
        threads.close();
    }
}
