package io.gpuforge.hypervisor.libvirt;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.libvirt.LibvirtException;
import org.libvirt.event.LifecycleListener;

/**
 * A connection that tells about domain lifecycle changes (defined, started, stopped…) as they happen,
 * on the event-loop thread: the receiver hops to its own thread. Needs a started {@link LibvirtEventLoop}.
 * Its own read-only connection, with keepalive; {@link #close()} returns at once (nothing arrives after it)
 * and leaves the RPCs to a background thread, so closing a watch on a host that went silent never freezes.
 */
public final class LibvirtWatch implements AutoCloseable {

    private final LibvirtConnection connection;
    private final AtomicBoolean open;

    private LibvirtWatch(LibvirtConnection connection, AtomicBoolean open) {
        this.connection = connection;
        this.open = open;
    }

    /** @param onEvent gets "domain-name event-type" (e.g. "web1 STARTED") */
    public static LibvirtWatch open(String uri, LibvirtEventLoop loop, Consumer<String> onEvent)
            throws LibvirtBackendException {
        if (!loop.start()) {
            throw new LibvirtBackendException("libvirt is not installed on this computer (apt-get install libvirt0)", null);
        }
        LibvirtConnection c = LibvirtConnection.open(uri, KeepAlive.DEFAULT, true);
        AtomicBoolean open = new AtomicBoolean(true);
        LifecycleListener l = (domain, event) -> {
            if (open.get()) {
                String name;
                try {
                    name = domain.getName();
                } catch (LibvirtException e) {
                    name = "?";
                }
                onEvent.accept(name + " " + event.getType());
            }
            return 0;
        };
        try {
            c.call("watch " + uri, conn -> {
                conn.addLifecycleListener(l);
                return null;
            });
        } catch (LibvirtBackendException e) {
            c.close();
            throw e;
        }
        c.beforeClose(conn -> conn.removeLifecycleListener(l));
        return new LibvirtWatch(c, open);
    }

    /** Stops the events at once; deregistering and closing happen on a background thread. */
    @Override
    public void close() {
        open.set(false);
        connection.close();
    }
}
