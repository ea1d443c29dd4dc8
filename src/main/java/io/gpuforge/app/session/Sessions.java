package io.gpuforge.app.session;

import io.gpuforge.app.tasks.TaskLog;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.hypervisor.Hypervisor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open hypervisor connections, one {@link ConnectionSession} per saved connection, shared by every page and
 * command that uses it. Sessions made here reconnect by themselves with backoff (when given a scheduler) and write
 * their tasks to the task log (when given one); {@link #addStateListener} hears how each connection is doing.
 * Closing a session (connection removed, window closed) never waits on the network.
 */
public final class Sessions implements AutoCloseable {

    /** The first wait before reconnecting, doubled each time up to {@link #RECONNECT_MAX}. */
    public static final Duration RECONNECT_FIRST = Duration.ofSeconds(1);
    public static final Duration RECONNECT_MAX = Duration.ofSeconds(60);
    private static final Logger LOG = LoggerFactory.getLogger(Sessions.class);

    private final HypervisorFactory factory;
    private final Executor closer;
    private final SessionLink.Reconnect reconnect;
    private final TaskLog taskLog;
    private final Map<Long, ConnectionSession> open = new ConcurrentHashMap<>();
    private final AtomicLong spotIds = new AtomicLong();
    private final List<BiConsumer<ConnectionInfo, ConnectionState>> stateListeners = new CopyOnWriteArrayList<>();

    public Sessions(HypervisorFactory factory, Executor closer) {
        this.factory = factory;
        this.closer = closer;
        this.reconnect = SessionLink.Reconnect.never();
        this.taskLog = null;
    }

    /**
     * Sessions that reconnect by themselves on {@code scheduler} (waiting {@code first}, doubled up to {@code max})
     * and record their tasks in {@code taskLog}.
     */
    public Sessions(HypervisorFactory factory, Executor closer, ScheduledExecutorService scheduler, Duration first,
                    Duration max, TaskLog taskLog) {
        this.factory = factory;
        this.closer = closer;
        this.reconnect = SessionLink.Reconnect.on(scheduler, first, max);
        this.taskLog = taskLog;
    }

    /** The session of a hypervisor connection (made on first use; connecting happens on its first request). */
    public ConnectionSession of(ConnectionInfo c) {
        if (factory.capabilities(c.kind()).isEmpty()) {
            throw new IllegalArgumentException(c.name() + " is a " + c.kind().db() + " connection, not a hypervisor");
        }
        return open.compute(c.id(), (id, s) -> s == null || !s.connection().equals(c) ? replace(s, c) : s);
    }

    /** The session of connection {@code id} if one is open. */
    public Optional<ConnectionSession> ifOpen(long id) {
        return Optional.ofNullable(open.get(id));
    }

    private ConnectionSession replace(ConnectionSession old, ConnectionInfo c) {
        if (old != null) {
            old.close();
        }
        ConnectionSession s = new ConnectionSession(c, factory, closer, reconnect, taskLog);
        s.addStateListener(state -> {
            for (BiConsumer<ConnectionInfo, ConnectionState> l : stateListeners) {
                try {
                    l.accept(c, state);
                } catch (RuntimeException e) {
                    LOG.warn("A connection state listener failed", e);
                }
            }
        });
        return s;
    }

    /** Hears each connection's state changes, on the thread that saw them: hop to your own. */
    public void addStateListener(BiConsumer<ConnectionInfo, ConnectionState> l) {
        stateListeners.add(l);
    }

    public void removeStateListener(BiConsumer<ConnectionInfo, ConnectionState> l) {
        stateListeners.remove(l);
    }

    /**
     * A session with a hypervisor named on the spot (the CLI's --pve / --libvirt): not shared, closed by the caller.
     */
    public ConnectionSession adhoc(AdhocHypervisor a) {
        return adhoc(a, a.asConnection());
    }

    private ConnectionSession adhoc(AdhocHypervisor a, ConnectionInfo as) {
        return new ConnectionSession(as, new HypervisorFactory() {
            @Override
            public Hypervisor open(ConnectionInfo connection) throws BackendException {
                return factory.open(a);
            }

            @Override
            public Hypervisor open(AdhocHypervisor other) throws BackendException {
                return factory.open(other);
            }

            @Override
            public Set<Capability> capabilities(ConnectionInfo.Kind kind) {
                return factory.capabilities(kind);
            }

            @Override
            public void close() {
                // the shared factory is closed with the Sessions
            }
        }, closer);
    }

    /**
     * A hypervisor named on the spot (the CLI's {@code --pve URL} with a token, {@code --libvirt URI}) as a connection
     * of this session only: {@link #of} gives its session, so every service (VM creation, the snippet's removal, the
     * console) works with it as with a saved one. Nothing is saved; its secret stays in memory, closed with the rest.
     */
    public ConnectionInfo onTheSpot(AdhocHypervisor a) {
        ConnectionInfo c = a.asConnection().withId(-spotIds.incrementAndGet());
        ConnectionSession s = adhoc(a, c);
        open.put(c.id(), s);
        return c;
    }

    /** Whether connections of this kind have a hypervisor behind them. */
    public boolean isHypervisor(ConnectionInfo.Kind kind) {
        return !factory.capabilities(kind).isEmpty();
    }

    /** Closes the session of a removed or edited connection. */
    public void forget(long connectionId) {
        ConnectionSession s = open.remove(connectionId);
        if (s != null) {
            s.close();
        }
    }

    @Override
    public void close() {
        stateListeners.clear();
        open.values().forEach(ConnectionSession::close);
        open.clear();
        factory.close();
    }
}
