package io.gpuforge.hypervisor.libvirt;

import org.libvirt.Library;
import org.libvirt.LibvirtException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * libvirt's event loop on one dedicated daemon thread ({@code libvirt-events}), started before the first
 * connection that listens for events. libvirt's default event implementation exists once per process
 * (virEventRegisterDefaultImpl), so this holds process-wide state on purpose: however many owners
 * there are (tests make several application contexts), the loop is initialised and run exactly once and
 * lives as long as the process.
 */
public final class LibvirtEventLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LibvirtEventLoop.class);
    private static final Object LOCK = new Object();
    private static Boolean running;

    /** Starts the loop once per process; false (and logged) when libvirt is not installed. */
    public boolean start() {
        synchronized (LOCK) {
            if (running != null) {
                return running;
            }
            try {
                Library.initEventLoop();
            } catch (LibvirtException | UnsatisfiedLinkError | NoClassDefFoundError e) {
                LOG.info("libvirt events unavailable: {}", e.getMessage());
                running = false;
                return false;
            }
            Thread t = new Thread(() -> {
                try {
                    Library.runEventLoop();
                } catch (LibvirtException e) {
                    LOG.warn("libvirt event loop stopped: {}", e.getMessage());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "libvirt-events");
            t.setDaemon(true);
            t.start();
            running = true;
            return true;
        }
    }

    /** Nothing to stop: the loop is the process's and ends with it. */
    @Override
    public void close() {
        // deliberately empty, see the class comment
    }
}
