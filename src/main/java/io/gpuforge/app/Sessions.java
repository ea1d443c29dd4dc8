package io.gpuforge.app;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.hypervisor.Hypervisor;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * The open hypervisor connections, one {@link ConnectionSession} per saved connection, shared by every page and
 * command that uses it. Closing a session (connection removed, window closed) never waits on the network.
 */
public final class Sessions implements AutoCloseable {

    private final HypervisorFactory factory;
    private final Executor closer;
    private final Map<Long, ConnectionSession> open = new ConcurrentHashMap<>();

    public Sessions(HypervisorFactory factory, Executor closer) {
        this.factory = factory;
        this.closer = closer;
    }

    /** The session of a hypervisor connection (made on first use; connecting happens on its first request). */
    public ConnectionSession of(ConnectionInfo c) {
        if (factory.capabilities(c.kind()).isEmpty()) {
            throw new IllegalArgumentException(c.name() + " is a " + c.kind().db() + " connection, not a hypervisor");
        }
        return open.compute(c.id(), (id, s) -> s == null || !s.connection().equals(c) ? replace(s, c) : s);
    }

    private ConnectionSession replace(ConnectionSession old, ConnectionInfo c) {
        if (old != null) {
            old.close();
        }
        return new ConnectionSession(c, factory, closer);
    }

    /**
     * A session with a hypervisor named on the spot (the CLI's --pve / --libvirt): not shared, closed by the caller.
     */
    public ConnectionSession adhoc(AdhocHypervisor a) {
        return new ConnectionSession(a.asConnection(), new HypervisorFactory() {
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
        open.values().forEach(ConnectionSession::close);
        open.clear();
        factory.close();
    }
}
