package io.gpuforge.app.session;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.hypervisor.Hypervisor;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The backend behind one {@link ConnectionSession} and how it is doing: opened on first use; after a network
 * failure (a call, or the change feed saying the server went away) it is let go and opened again by itself, first
 * after {@link Reconnect#first}, then twice as long each time up to {@link Reconnect#max}, while anyone watches its
 * changes (otherwise the next call opens it again); a refused login or certificate is FAILED and not retried (it does not mend by itself).
 * The change feed's watchers stay registered across reconnects and hear an INVENTORY event once it is back.
 */
final class SessionLink {

    /** How reconnecting waits; {@code scheduler} empty: never by itself (the next call opens again). */
    record Reconnect(Optional<ScheduledExecutorService> scheduler, Duration first, Duration max) {
        static Reconnect never() {
            return new Reconnect(Optional.empty(), Duration.ofSeconds(1), Duration.ofSeconds(60));
        }

        static Reconnect on(ScheduledExecutorService scheduler, Duration first, Duration max) {
            return new Reconnect(Optional.of(scheduler), first, max);
        }

        /** The wait before attempt {@code n} (0-based): first, 2×first, 4×first…, at most max. */
        Duration delay(int n) {
            long ms = first.toMillis() << Math.min(n, 20);
            return Duration.ofMillis(Math.min(Math.max(ms, first.toMillis()), max.toMillis()));
        }
    }

    /** One request (or a few) on the open backend. */
    @FunctionalInterface
    interface Call<T> {
        T on(Hypervisor h) throws BackendException, InterruptedException;
    }

    private static final Logger LOG = LoggerFactory.getLogger(SessionLink.class);
    private final ConnectionInfo connection;
    private final HypervisorFactory factory;
    private final Executor closer;
    private final Reconnect reconnect;
    private final List<Consumer<ChangeEvent>> watchers = new CopyOnWriteArrayList<>();
    private final List<Consumer<ConnectionState>> stateListeners = new CopyOnWriteArrayList<>();
    private Hypervisor hypervisor;
    private Hypervisor.Subscription feed;
    private ScheduledFuture<?> retry;
    private int attempts;
    private boolean closed;
    private volatile ConnectionState state = new ConnectionState(ConnectionState.Status.CONNECTING, "");

    SessionLink(ConnectionInfo connection, HypervisorFactory factory, Executor closer, Reconnect reconnect) {
        this.connection = connection;
        this.factory = factory;
        this.closer = closer;
        this.reconnect = reconnect;
    }

    Set<Capability> capabilities() {
        Hypervisor h;
        synchronized (this) {
            h = hypervisor;
        }
        return h == null ? factory.capabilities(connection.kind()) : h.capabilities();
    }

    ConnectionState state() {
        return state;
    }

    void addStateListener(Consumer<ConnectionState> l) {
        stateListeners.add(l);
    }

    void removeStateListener(Consumer<ConnectionState> l) {
        stateListeners.remove(l);
    }

    <T> T call(Call<T> c) throws BackendException, InterruptedException {
        Hypervisor h = backend();
        try {
            T out = c.on(h);
            answered();
            return out;
        } catch (BackendException e) {
            if (lostConnection(e)) {
                lost(h, e);
            } else {
                answered();
            }
            throw e;
        }
    }

    private static boolean lostConnection(BackendException e) {
        return e.kind() == BackendException.Kind.NETWORK || e.kind() == BackendException.Kind.TIMEOUT;
    }

    private synchronized Hypervisor openedOrNull() {
        return hypervisor;
    }

    private Hypervisor backend() throws BackendException {
        synchronized (this) {
            if (closed) {
                throw new BackendException(BackendException.Kind.FAILED, connection.name() + " is closed");
            }
            if (hypervisor != null) {
                return hypervisor;
            }
            try {
                hypervisor = factory.open(connection);
            } catch (BackendException e) {
                openFailed(e);
                throw e;
            }
            if (!watchers.isEmpty()) {
                subscribe(hypervisor);
            }
            return hypervisor;
        }
    }

    /** Subscribes the session's relay to the open backend's feed; a feed that fails to start is retried later. */
    private synchronized void subscribe(Hypervisor h) {
        if (feed != null || hypervisor != h || !h.can(Capability.CHANGE_FEED)) {
            return;
        }
        try {
            feed = h.watch(e -> relay(h, e));
        } catch (BackendException e) {
            LOG.info("{}: the change feed did not start ({}); retried when the connection is opened again",
                    connection.name(), e.getMessage());
        }
    }

    private void relay(Hypervisor h, ChangeEvent e) {
        if (openedOrNull() != h) {
            return;
        }
        if (e.kind() == ChangeEvent.Kind.CONNECTION) {
            ConnectionState s = h.state();
            if (s.status() == ConnectionState.Status.RECONNECTING) {
                lost(h, new BackendException(BackendException.Kind.NETWORK, s.message()));
            } else if (s.status() == ConnectionState.Status.CONNECTED) {
                answered();
            }
        }
        tell(e);
    }

    private void tell(ChangeEvent e) {
        for (Consumer<ChangeEvent> w : watchers) {
            try {
                w.accept(e);
            } catch (RuntimeException ex) {
                LOG.warn("A change listener of {} failed on {}", connection.name(), e, ex);
            }
        }
    }

    /** The server answered: connected, and the next loss waits the shortest time again. */
    private void answered() {
        synchronized (this) {
            attempts = 0;
        }
        setState(ConnectionState.connected());
    }

    private void openFailed(BackendException e) {
        if (lostConnection(e)) {
            setState(new ConnectionState(ConnectionState.Status.RECONNECTING, e.getMessage()));
            scheduleReconnect();
        } else {
            setState(new ConnectionState(ConnectionState.Status.FAILED, e.getMessage()));
        }
    }

    /** The backend lost its connection: let it go (in the background), reconnect later. */
    private void lost(Hypervisor h, BackendException e) {
        Hypervisor.Subscription f;
        synchronized (this) {
            if (hypervisor != h) {
                return;
            }
            LOG.info("{}: connection lost ({}); reconnecting", connection.name(), e.getMessage());
            hypervisor = null;
            f = feed;
            feed = null;
        }
        closer.execute(() -> {
            if (f != null) {
                f.close();
            }
            h.close();
        });
        setState(new ConnectionState(ConnectionState.Status.RECONNECTING, e.getMessage()));
        scheduleReconnect();
    }

    private void scheduleReconnect() {
        synchronized (this) {
            if (closed || reconnect.scheduler().isEmpty() || retry != null && !retry.isDone() || watchers.isEmpty()) {
                return;
            }
            Duration wait = reconnect.delay(attempts++);
            LOG.debug("{}: next connection attempt in {} ms", connection.name(), wait.toMillis());
            try {
                retry = reconnect.scheduler().get().schedule(() -> closer.execute(this::reconnectNow), wait.toMillis(),
                        TimeUnit.MILLISECONDS);
            } catch (RuntimeException rejected) {
                LOG.debug("{}: not reconnecting, the scheduler stopped", connection.name());
            }
        }
    }

    private void reconnectNow() {
        synchronized (this) {
            retry = null;
            if (closed) {
                return;
            }
        }
        Hypervisor h = null;
        try {
            h = backend();
            h.inventory();
            answered();
            subscribe(h);
            LOG.info("{}: connected again", connection.name());
            tell(ChangeEvent.of(ChangeEvent.Kind.INVENTORY, "connected again"));
        } catch (BackendException e) {
            if (h != null && lostConnection(e)) {
                lost(h, e);
            } else if (h != null) {
                setState(new ConnectionState(ConnectionState.Status.FAILED, e.getMessage()));
            }
            // a failed open was handled (state set, next attempt scheduled) by backend()
        } catch (RuntimeException e) {
            LOG.warn("{}: reconnecting failed unexpectedly", connection.name(), e);
            scheduleReconnect();
        }
    }

    AutoCloseable watch(Consumer<ChangeEvent> listener) throws BackendException {
        if (!capabilities().contains(Capability.CHANGE_FEED)) {
            throw BackendException.unsupported(connection.name(), Capability.CHANGE_FEED);
        }
        watchers.add(listener);
        try {
            subscribe(backend());
        } catch (BackendException e) {
            if (!lostConnection(e)) {
                watchers.remove(listener);
                throw e;
            }
            // unreachable now: watched once it is back (backend() scheduled the reconnect)
        }
        return () -> {
            watchers.remove(listener);
            Hypervisor.Subscription f = null;
            synchronized (this) {
                if (watchers.isEmpty()) {
                    f = feed;
                    feed = null;
                }
            }
            if (f != null) {
                closer.execute(f::close);
            }
        };
    }

    private void setState(ConnectionState next) {
        ConnectionState before;
        synchronized (this) {
            if (closed && next.status() != ConnectionState.Status.CLOSED) {
                return;
            }
            before = state;
            state = next;
        }
        if (before.status() != next.status()) {
            for (Consumer<ConnectionState> l : stateListeners) {
                try {
                    l.accept(next);
                } catch (RuntimeException e) {
                    LOG.warn("A state listener of {} failed", connection.name(), e);
                }
            }
        }
    }

    void close() {
        Hypervisor h;
        Hypervisor.Subscription f;
        synchronized (this) {
            if (closed) {
                return;
            }
            h = hypervisor;
            f = feed;
            hypervisor = null;
            feed = null;
            if (retry != null) {
                retry.cancel(false);
            }
        }
        setState(new ConnectionState(ConnectionState.Status.CLOSED, ""));
        synchronized (this) {
            closed = true;
        }
        watchers.clear();
        stateListeners.clear();
        if (h != null || f != null) {
            closer.execute(() -> {
                if (f != null) {
                    f.close();
                }
                if (h != null) {
                    h.close();
                }
            });
        }
    }
}
