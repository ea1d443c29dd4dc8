package io.gpuforge.hypervisor.proxmox;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.hypervisor.Hypervisor;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every request of one Proxmox VE connection goes through here: the connection state follows the answers
 * (CONNECTED after a good one; RECONNECTING after a network failure or timeout, since the next request tries
 * again; FAILED after a refused login or certificate, which does not mend by itself), each change of state is
 * told to the watchers as a {@link ChangeEvent.Kind#CONNECTION} event, and failures leave as
 * {@link BackendException}. After {@link #close()} every call fails at once.
 */
final class PveSession {

    /** One request (or a few) on the client. */
    @FunctionalInterface
    interface Call<T> {
        T run() throws PveApiException;
    }

    /** A request that waits, and can be interrupted. */
    @FunctionalInterface
    interface WaitingCall<T> {
        T run() throws PveApiException, InterruptedException;
    }

    private static final Logger LOG = LoggerFactory.getLogger(PveSession.class);
    private final String server;
    private final List<Consumer<ChangeEvent>> watchers = new CopyOnWriteArrayList<>();
    private volatile ConnectionState state;
    private volatile boolean closed;

    PveSession(String server) {
        this.server = server;
        this.state = new ConnectionState(ConnectionState.Status.CONNECTING, "Not connected to " + server + " yet");
    }

    ConnectionState state() {
        return state;
    }

    boolean closed() {
        return closed;
    }

    <T> T call(Call<T> c) throws BackendException {
        open();
        try {
            T out = c.run();
            answered();
            return out;
        } catch (PveApiException e) {
            throw failed(e);
        }
    }

    <T> T callWaiting(WaitingCall<T> c) throws BackendException, InterruptedException {
        open();
        try {
            T out = c.run();
            answered();
            return out;
        } catch (PveApiException e) {
            throw failed(e);
        }
    }

    private void open() throws BackendException {
        if (closed) {
            throw new BackendException(BackendException.Kind.FAILED, "The connection to " + server
                    + " was closed: connect again to go on");
        }
    }

    /** The server answered (also a refusal of one request: it is there and talks to us). */
    private void answered() {
        if (!state.isConnected()) {
            change(ConnectionState.connected());
        }
    }

    private BackendException failed(PveApiException cause) {
        BackendException e = PveErrors.map(cause);
        switch (e.kind()) {
            case NETWORK:
            case TIMEOUT:
                change(new ConnectionState(ConnectionState.Status.RECONNECTING, e.getMessage()));
                break;
            case AUTH:
            case TLS:
                change(new ConnectionState(ConnectionState.Status.FAILED, e.getMessage()));
                break;
            default:
                answered();
                break;
        }
        return e;
    }

    private void change(ConnectionState next) {
        if (closed) {
            return;
        }
        ConnectionState before;
        synchronized (this) {
            before = state;
            state = next;
        }
        if (before.status() != next.status() || !before.message().equals(next.message())) {
            LOG.debug("{}: {} {}", server, next.status(), next.message());
            ChangeEvent ev = ChangeEvent.of(ChangeEvent.Kind.CONNECTION, next.status().name().toLowerCase(Locale.ROOT)
                    + (next.message().isEmpty() ? "" : ": " + next.message()));
            for (Consumer<ChangeEvent> w : watchers) {
                try {
                    w.accept(ev);
                } catch (RuntimeException ex) {
                    LOG.warn("A watcher of {} failed on a connection event", server, ex);
                }
            }
        }
    }

    /** Hears each change of the connection state until closed. */
    Hypervisor.Subscription onChange(Consumer<ChangeEvent> watcher) {
        watchers.add(watcher);
        return () -> watchers.remove(watcher);
    }

    void close() {
        closed = true;
        state = new ConnectionState(ConnectionState.Status.CLOSED, "Closed");
        watchers.clear();
    }
}
