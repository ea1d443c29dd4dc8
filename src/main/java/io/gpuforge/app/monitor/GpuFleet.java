package io.gpuforge.app.monitor;

import io.gpuforge.app.connections.ConnectionsService;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.telemetry.GpuMetricsCollector;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.GpuTarget;
import io.gpuforge.domain.telemetry.SourceStatus;
import io.gpuforge.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.share.NodeShares;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every GPU on every connection, live, for the GPU monitor: the GPUs each hypervisor connection's nodes report
 * (and this computer's), one telemetry watch per connection while anyone looks (the first subscriber starts them,
 * the last one's leaving stops them), the newest reading of each GPU and the last minutes of readings (sparklines,
 * the live end of a chart), the state of each source, and every reading handed to the alerts. Listeners are told
 * "something changed" on a telemetry thread; they read what they need at their own pace (a window: once a frame).
 */
public final class GpuFleet implements AutoCloseable {

    /** Readings kept per GPU: six minutes at 1 Hz (the 5-minute window's live end and the sparklines). */
    public static final int RECENT = 360;
    private static final Logger LOG = LoggerFactory.getLogger(GpuFleet.class);

    /** Told that rows, readings or sources changed; called on a telemetry thread, often: coalesce. */
    @FunctionalInterface
    public interface Listener {
        void changed();
    }

    /** Ends a subscription; the last one stops the watches. */
    public interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    /** A source of readings and how it is doing, or a connection that cannot be read (with why). */
    public record Source(String connection, Optional<SourceStatus> status, Optional<String> problem,
                         TelemetryService.Failure.Reason reason) {
    }

    private final ConnectionsService connections;
    private final Sessions sessions;
    private final TelemetryService telemetry;
    private final AlertService alerts;
    private final Executor background;
    private final ScheduledExecutorService scheduler;
    private final Clock clock;
    private final boolean includeLocal;
    private final Supplier<Duration> interval;
    private final FleetListeners listeners = new FleetListeners();
    private final FleetReadings readings = new FleetReadings(RECENT);
    private final FleetSources sources = new FleetSources();
    private final List<TelemetryService.Watch> watches = new ArrayList<>();
    /** What a node's host says of its GPUs' drivers and containers (blocking; never throws). */
    private final BiFunction<ConnectionSession, String, NodeShares> shares;
    private volatile List<FleetGpu> rows = List.of();
    private volatile boolean loading;
    private int subscribers;
    private volatile long generation;
    private ScheduledFuture<?> ticker;
    /** Where a gpuforge serve writing this store makes itself known (the window's fleet only). */
    private volatile Optional<ServiceBeacon> beacon = Optional.empty();
    private volatile Optional<ServiceBeacon.Info> following = Optional.empty();
    private ScheduledFuture<?> serviceCheck;

    public GpuFleet(ConnectionsService connections, Sessions sessions, TelemetryService telemetry, AlertService alerts,
                    Executor background, ScheduledExecutorService scheduler, Clock clock, boolean includeLocal,
                    Supplier<Duration> interval, BiFunction<ConnectionSession, String, NodeShares> shares) {
        this.connections = connections;
        this.shares = shares;
        this.sessions = sessions;
        this.telemetry = telemetry;
        this.alerts = alerts;
        this.background = background;
        this.scheduler = scheduler;
        this.clock = clock;
        this.includeLocal = includeLocal;
        this.interval = interval;
    }

    /** Starts watching every connection if this is the first subscriber. */
    public synchronized Subscription subscribe(Listener l) {
        listeners.add(l);
        if (subscribers++ == 0) {
            start();
        }
        return new Subscription() {
            private boolean closed;

            @Override
            public void close() {
                synchronized (GpuFleet.this) {
                    if (closed) {
                        return;
                    }
                    closed = true;
                    listeners.remove(l);
                    if (--subscribers == 0) {
                        stop();
                    }
                }
            }
        };
    }

    /**
     * Told of the same changes as a subscriber, without starting the watches: the tree shows what the monitor reads
     * while it is open, and nothing is sampled for it alone.
     */
    public Subscription observe(Listener l) {
        listeners.add(l);
        return () -> listeners.remove(l);
    }

    /** Whether the GPUs are watched now (the monitor, or another subscriber, is open). */
    public synchronized boolean watching() {
        return subscribers > 0;
    }

    /**
     * The window's fleet: while a gpuforge serve writes this store (its {@code beacon} is live), its readings are read
     * from the store instead of sampling the same GPUs a second time, and its alerts are its own; looked at when the
     * watches start and every {@link ServiceBeacon#HEARTBEAT}, so the fleet samples by itself again when it stops.
     */
    public synchronized void followService(ServiceBeacon beacon) {
        this.beacon = Optional.of(beacon);
        refresh();
    }

    /** The service whose readings the fleet reads, while it does. */
    public Optional<ServiceBeacon.Info> service() {
        return following;
    }

    /** Reads the connections and their GPUs again and restarts the watches (a connection was added, F5). */
    public synchronized void refresh() {
        if (subscribers > 0) {
            stop();
            start();
        }
    }

    /**
     * Serves the latest reading of every GPU to Prometheus on {@code host:port} (0: a free port), with
     * {@code gpuforge_gpu_info} from the fleet's rows; {@code webConfig}: TLS and basic auth (needed off loopback).
     * Returns the port.
     */
    public int exportPrometheus(String host, int port, Optional<java.nio.file.Path> webConfig)
            throws TelemetryService.Failure {
        return telemetry.prometheus().start(host, port, webConfig, this::labels);
    }

    /** What the Prometheus endpoint's {@code gpuforge_gpu_info} says of each GPU that has readings. */
    public Map<GpuId, GpuMetricsCollector.GpuLabels> labels() {
        return FleetRows.labels(rows);
    }

    /** Readings (not gaps) received since the fleet was made. */
    public long samplesRead() {
        return readings.read();
    }

    /** The GPUs, in the order of the connections and their nodes. */
    public List<FleetGpu> gpus() {
        return rows;
    }

    /** Whether the connections are still being read. */
    public boolean loading() {
        return loading;
    }

    public Optional<FleetGpu> gpu(GpuId id) {
        return rows.stream().filter(r -> r.id().equals(id)).findFirst();
    }

    public Optional<GpuSample> latest(GpuId id) {
        return readings.latest(id);
    }

    /** The newest entry of a GPU, a gap marker when its source is lost. */
    public Optional<GpuSample> newest(GpuId id) {
        return readings.newest(id);
    }

    /** The readings of a GPU newer than {@code afterMillis} (gap markers included), oldest first. */
    public List<GpuSample> recent(GpuId id, long afterMillis) {
        return readings.recent(id, afterMillis);
    }

    /** The sources and the connections that cannot be read, by connection. */
    public List<Source> sources() {
        return sources.all();
    }

    private void start() {
        long gen = ++generation;
        loading = true;
        ticker = scheduler.scheduleWithFixedDelay(() -> alerts.tick(clock.millis()), 1, 1, TimeUnit.SECONDS);
        beacon.ifPresent(b -> serviceCheck = scheduler.scheduleWithFixedDelay(() -> {
            if (b.live().isPresent() != following.isPresent()) {
                background.execute(this::refresh);
            }
        }, ServiceBeacon.HEARTBEAT.toMillis(), ServiceBeacon.HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS));
        background.execute(() -> open(gen));
    }

    private void stop() {
        generation++;
        if (ticker != null) {
            ticker.cancel(false);
            ticker = null;
        }
        if (serviceCheck != null) {
            serviceCheck.cancel(false);
            serviceCheck = null;
        }
        List<TelemetryService.Watch> closing = new ArrayList<>(watches);
        watches.clear();
        background.execute(() -> closing.forEach(TelemetryService.Watch::close));
        alerts.forgetAll();
        sources.clear();
        listeners.changed();
    }

    /**
     * Every GPU of one connection, read now (blocking): every node's PCI listing, the VMs' configurations on nodes
     * with GPUs, the node's host for drivers and containers. The rows the fleet shows, so that {@code inventory} and
     * the fleet count and name the same GPUs, drivers and holders.
     */
    public List<FleetGpu> census(ConnectionInfo c, ConnectionSession s) throws BackendException {
        return FleetRows.of(c, s, shares);
    }

    /** Reads every connection's GPUs and starts its watch (background). */
    private void open(long gen) {
        Optional<ServiceBeacon.Info> service = beacon.flatMap(ServiceBeacon::live);
        List<ConnectionInfo> all;
        try {
            all = connections.all();
        } catch (StoreException e) {
            sources.problem("", "Cannot read the saved connections: " + e.getMessage(),
                    TelemetryService.Failure.Reason.OTHER);
            all = List.of();
        }
        List<FleetGpu> found = new ArrayList<>();
        for (ConnectionInfo c : all) {
            if (!sessions.isHypervisor(c.kind())) {
                continue;
            }
            try {
                found.addAll(FleetRows.of(c, sessions.of(c), shares));
            } catch (BackendException | RuntimeException e) {
                problem(c.name(), "Cannot list the GPUs of " + c.name() + ": " + e.getMessage(),
                        TelemetryService.Failure.Reason.OTHER);
            }
        }
        synchronized (this) {
            if (gen != generation) {
                return;
            }
            rows = List.copyOf(found);
        }
        listeners.changed();
        following = service;
        telemetry.history().following(service.isPresent());
        if (service.isPresent()) {
            follow(gen, all);
            return;
        }
        for (ConnectionInfo c : all) {
            if (sessions.isHypervisor(c.kind())) {
                watch(gen, c.name(), Optional.of(c), new GpuTarget.Connection(c));
            }
        }
        if (includeLocal) {
            watch(gen, "local", Optional.empty(), new GpuTarget.Local());
        }
        loading = false;
        listeners.changed();
    }

    /** The service's readings from the store: the last minutes at once (sparklines), then as they are written. */
    private void follow(long gen, List<ConnectionInfo> all) {
        ServiceFeed feed = new ServiceFeed(telemetry.history().follower(clock.millis() - RECENT * 1000L), interval(), scheduler,
                background, s -> {
                    Optional<ConnectionInfo> c = ServiceFeed.connectionOf(s, all, rows);
                    sample(gen, s, c.map(ConnectionInfo::name).orElse("local"), c,
                            c.<GpuTarget>map(GpuTarget.Connection::new).orElse(new GpuTarget.Local()));
                }, message -> problem("gpuforge serve", message,
                        TelemetryService.Failure.Reason.OTHER));
        synchronized (this) {
            if (gen != generation) {
                feed.close();
                return;
            }
            watches.add(feed);
        }
        loading = false;
        listeners.changed();
    }

    /** How often each GPU is sampled: the settings' interval (defaults.json, site.json, settings.json) when watching starts. */
    public Duration interval() {
        return interval.get();
    }

    private void watch(long gen, String name, Optional<ConnectionInfo> c, GpuTarget target) {
        try {
            TelemetryService.Watch w = telemetry.watch(target, interval(),
                    s -> sample(gen, s, name, c, target),
                    st -> status(gen, name, st));
            synchronized (this) {
                if (gen == generation) {
                    watches.add(w);
                    return;
                }
            }
            w.close();
        } catch (TelemetryService.Failure e) {
            LOG.info("GPU monitor: {} is not read: {}", name, e.getMessage());
            problem(name, e.getMessage(), e.reason());
        } catch (RuntimeException e) {
            LOG.info("GPU monitor: {} is not read: {}", name, e.getMessage());
            problem(name, e.getMessage(), TelemetryService.Failure.Reason.OTHER);
        }
    }

    private void problem(String connection, String message, TelemetryService.Failure.Reason reason) {
        sources.problem(connection, message, reason);
        listeners.changed();
    }

    private void status(long gen, String connection, SourceStatus st) {
        if (gen == generation && st.state() != SourceStatus.State.STOPPED) {
            sources.status(connection, st);
            listeners.changed();
        }
    }

    private void sample(long gen, GpuSample s, String connection, Optional<ConnectionInfo> c, GpuTarget target) {
        if (gen != generation) {
            return;
        }
        readings.add(s);
        bind(s, connection, c, target);
        if (following.isEmpty()) { // else the service evaluates the rules, and says so
            alerts.accept(s);
        }
        listeners.changed();
    }

    /** Gives the row its readings' id the first time they arrive (or adds a row for readings of an unlisted GPU). */
    private synchronized void bind(GpuSample s, String connection, Optional<ConnectionInfo> c, GpuTarget target) {
        rows = FleetRows.bound(rows, s, connection, c, target);
    }

    /** The readings of every GPU newer than the given time, as one map (for tests and exports). */
    public Map<GpuId, List<GpuSample>> recentAll(long afterMillis) {
        return readings.recentAll(rows, afterMillis);
    }

    @Override
    public synchronized void close() {
        listeners.clear();
        if (subscribers > 0) {
            subscribers = 0;
            stop();
        }
    }
}
