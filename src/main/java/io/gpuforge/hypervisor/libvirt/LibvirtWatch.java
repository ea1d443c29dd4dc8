package io.gpuforge.hypervisor.libvirt;

import java.util.function.Consumer;
import org.libvirt.Connect;
import org.libvirt.LibvirtException;
import org.libvirt.event.LifecycleListener;

/**
 * A connection that tells about domain lifecycle changes (defined, started, stopped…) as they happen,
 * on the event-loop thread: the receiver hops to its own thread. Needs a started {@link LibvirtEventLoop}.
 */
public final class LibvirtWatch implements AutoCloseable {

    private final Connect connect;
    private final LifecycleListener listener;

    private LibvirtWatch(Connect connect, LifecycleListener listener) {
        this.connect = connect;
        this.listener = listener;
    }

    /** @param onEvent gets "domain-name event-type" (e.g. "web1 STARTED") */
    public static LibvirtWatch open(String uri, LibvirtEventLoop loop, Consumer<String> onEvent)
            throws LibvirtBackendException {
        if (!loop.start()) {
            throw new LibvirtBackendException("libvirt is not installed on this computer (apt-get install libvirt0)", null);
        }
        try {
            Connect c = new Connect(uri, true);
            LifecycleListener l = (domain, event) -> {
                String name;
                try {
                    name = domain.getName();
                } catch (LibvirtException e) {
                    name = "?";
                }
                onEvent.accept(name + " " + event.getType());
                return 0;
            };
            c.addLifecycleListener(l);
            return new LibvirtWatch(c, l);
        } catch (LibvirtException e) {
            throw LibvirtConnection.wrap("watch " + uri, e);
        }
    }

    @Override
    public void close() {
        try {
            connect.removeLifecycleListener(listener);
        } catch (LibvirtException e) {
            // closing anyway
        }
        try {
            connect.close();
        } catch (LibvirtException e) {
            // nothing more to do
        }
    }
}
