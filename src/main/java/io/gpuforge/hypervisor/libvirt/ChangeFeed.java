package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.hypervisor.Hypervisor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.libvirt.Domain;
import org.libvirt.LibvirtException;
import org.libvirt.event.ConnectionCloseReason;
import org.libvirt.event.DefinedDetail;
import org.libvirt.event.DomainEvent;
import org.libvirt.event.DomainEventType;
import org.libvirt.event.LifecycleListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The change feed of one libvirt connection: domain lifecycle events (through the process-wide
 * {@link LibvirtEventLoop}) and the connection's close callback, told to every subscriber on the event-loop
 * thread. One native listener serves all subscribers, registered with the first one and deregistered when
 * the connection closes, so that ending a subscription is no RPC and never waits on the network.
 */
final class ChangeFeed {

    private static final Logger LOG = LoggerFactory.getLogger(ChangeFeed.class);

    private final LibvirtConnection connection;
    private final String host;
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    private final AtomicReference<ConnectionState> state = new AtomicReference<>(ConnectionState.connected());
    private final Object registration = new Object();
    private LifecycleListener lifecycle;

    /** One subscription; its own object so that the same listener subscribed twice is two subscriptions. */
    private static final class Subscriber {
        final Consumer<ChangeEvent> listener;

        Subscriber(Consumer<ChangeEvent> listener) {
            this.listener = listener;
        }
    }

    ChangeFeed(LibvirtConnection connection, String host) {
        this.connection = connection;
        this.host = host;
    }

    /** Listens for the connection closing (keepalive timeout, EOF); drivers without the callback are left as they are. */
    void start() {
        try {
            connection.call("watch the connection to " + host, c -> {
                c.registerCloseListener((conn, reason) -> closedBy(reason));
                return null;
            });
            connection.beforeClose(c -> c.unregisterCloseListener());
        } catch (LibvirtBackendException e) {
            LOG.debug("no close callback on {}: {}", connection.uri(), e.getMessage());
        }
    }

    ConnectionState state() {
        return state.get();
    }

    /** A call failed because the connection did: say so once, to the state and the subscribers. */
    void failed(String message) {
        ConnectionState before = state.getAndUpdate(s -> s.status() == ConnectionState.Status.CLOSED ? s
                : new ConnectionState(ConnectionState.Status.FAILED, message));
        if (before.status() == ConnectionState.Status.CONNECTED) {
            publish(ChangeEvent.of(ChangeEvent.Kind.CONNECTION, message));
        }
    }

    private void closedBy(ConnectionCloseReason reason) {
        if (state.get().status() == ConnectionState.Status.CLOSED) {
            return; // our own close
        }
        String why = reason == ConnectionCloseReason.KEEPALIVE ? "the host stopped answering (keepalive timeout)"
                : reason == ConnectionCloseReason.EOF ? "the host closed the connection"
                : "the connection failed (" + reason + ")";
        failed("The connection to " + host + " is lost: " + why + "; connect again when the host is back");
    }

    Hypervisor.Subscription subscribe(Consumer<ChangeEvent> listener) throws LibvirtBackendException {
        if (state.get().status() == ConnectionState.Status.CLOSED) {
            throw new LibvirtBackendException(BackendException.Kind.INVALID, "The connection to " + host + " is closed:"
                    + " connect again to watch it", null);
        }
        synchronized (registration) {
            if (lifecycle == null) {
                LifecycleListener l = this::onLifecycle;
                connection.call("watch the domains of " + host, c -> {
                    c.addLifecycleListener(l);
                    return null;
                });
                connection.beforeClose(c -> c.removeLifecycleListener(l));
                lifecycle = l;
            }
        }
        Subscriber s = new Subscriber(listener);
        subscribers.add(s);
        return () -> subscribers.remove(s);
    }

    private int onLifecycle(Domain domain, DomainEvent event) {
        String name;
        try {
            name = domain.getName();
        } catch (LibvirtException e) {
            return 0;
        }
        VmRef vm = new VmRef(host, name);
        DomainEventType type = event.getType();
        Object how = event.getDetail();
        String detail = type + " " + how;
        ChangeEvent.Kind kind;
        if (type == DomainEventType.DEFINED) {
            kind = how == DefinedDetail.ADDED ? ChangeEvent.Kind.VM_ADDED : ChangeEvent.Kind.VM_CONFIG;
        } else if (type == DomainEventType.UNDEFINED) {
            kind = ChangeEvent.Kind.VM_REMOVED;
        } else {
            kind = ChangeEvent.Kind.VM_STATE;
        }
        publish(ChangeEvent.ofVm(kind, vm, detail));
        return 0;
    }

    private void publish(ChangeEvent e) {
        for (Subscriber s : subscribers) {
            try {
                s.listener.accept(e);
            } catch (RuntimeException ex) {
                LOG.warn("a change listener of {} failed on {}", host, e, ex);
            }
        }
    }

    /** The hypervisor is closed (by its owner, who knows): nothing more arrives. */
    void closed() {
        state.set(new ConnectionState(ConnectionState.Status.CLOSED, "closed"));
        subscribers.clear();
    }
}
