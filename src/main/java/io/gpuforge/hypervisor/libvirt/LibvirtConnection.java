package io.gpuforge.hypervisor.libvirt;

import com.sun.jna.Pointer;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.pci.PciInventory;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.libvirt.Connect;
import org.libvirt.Device;
import org.libvirt.Domain;
import org.libvirt.LibvirtException;
import org.libvirt.jna.Libvirt.VirErrorCallback;
import org.libvirt.jna.virError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One libvirt connection ({@code qemu:///system}, {@code qemu+ssh://…}, {@code test:///file.xml}) behind
 * GPUForge's own types: host, domains, PCI devices and IOMMU groups, define/start/stop/undefine, node
 * device detach/reattach. Every {@link LibvirtException} becomes a {@link LibvirtBackendException} with
 * libvirt's message and its kind ({@link LibvirtErrors}). Blocking: call off the FX thread.
 *
 * <p>A connection to a daemon uses libvirt's keepalive ({@link KeepAlive}), so a host that falls off the
 * network makes calls fail instead of hanging. {@link #close()} never waits on the network: it refuses new
 * calls at once and leaves the native clean-up (deregistering listeners, {@code virConnectClose}) to a daemon
 * thread, which runs it after the calls in flight have ended.
 */
public final class LibvirtConnection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LibvirtConnection.class);
    private static final int UNDEFINE_MANAGED_SAVE = 1;
    private static final int UNDEFINE_NVRAM = 4;
    private static volatile boolean quiet;
    /** Process-wide on purpose (see {@link #silenceStderr()}): libvirt holds on to it. */
    private static final VirErrorCallback SILENT = new VirErrorCallback() {
        @Override
        public void errorCallback(Pointer userData, virError error) {
            // reported through the exception of the failing call
        }
    };
    /** How long a closed connection's listeners stay reachable for an event libvirt was already dispatching. */
    private static final long DISPATCH_GRACE_MS = 500;
    private final Connect connect;
    private final String uri;
    private final ReadWriteLock inFlight = new ReentrantReadWriteLock();
    private final List<NativeStep> beforeClose = new CopyOnWriteArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    /** A libvirt call on the connection. */
    @FunctionalInterface
    interface Call<T> {
        T apply(Connect c) throws LibvirtException, LibvirtBackendException;
    }

    /** Native clean-up run on the closing thread before the connection itself is closed. */
    @FunctionalInterface
    interface NativeStep {
        void run(Connect c) throws LibvirtException;
    }

    private LibvirtConnection(String uri, Connect connect) {
        this.uri = uri;
        this.connect = connect;
    }

    public static LibvirtConnection open(String uri) throws LibvirtBackendException {
        return open(uri, KeepAlive.DEFAULT, false);
    }

    public static LibvirtConnection open(String uri, KeepAlive keepAlive) throws LibvirtBackendException {
        return open(uri, keepAlive, false);
    }

    static LibvirtConnection open(String uri, KeepAlive keepAlive, boolean readOnly) throws LibvirtBackendException {
        silenceStderr();
        // libvirt wants its event loop registered before the first connection of the process (keepalive and
        // events need it); doing it here means no connection can race the registration (a deadlock seen
        // when both ran at once)
        new LibvirtEventLoop().start();
        LibvirtConnection c;
        try {
            c = new LibvirtConnection(uri, new Connect(uri, readOnly));
        } catch (LibvirtException e) {
            throw LibvirtErrors.wrap("connect to " + uri, e);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw new LibvirtBackendException(BackendException.Kind.UNSUPPORTED, "libvirt is not installed on this"
                    + " computer (apt-get install libvirt0): " + e.getMessage(), e);
        }
        c.keepAlive(keepAlive);
        return c;
    }

    private void keepAlive(KeepAlive k) {
        if (!k.enabled() || uri.startsWith("test:")) {
            return; // the test driver runs in this process: nothing to lose touch with
        }
        try {
            if (connect.setKeepAlive(k.intervalSeconds(), k.count())) {
                LOG.info("{} does not answer keepalive requests: a host that drops off the network goes unnoticed", uri);
            }
        } catch (LibvirtException e) {
            LOG.info("no keepalive on {}: {}", uri, e.getMessage());
        }
    }

    /**
     * libvirt prints every error to stderr by default; we report them ourselves. libvirt keeps the handler's
     * native address for the life of the process, so the handler must stay reachable as long: a collected one
     * lets JNA reuse its address, and libvirt's next error then runs some other callback with its arguments.
     */
    private static void silenceStderr() {
        if (!quiet) {
            try {
                Connect.setErrorCallback(SILENT);
                quiet = true;
            } catch (LibvirtException | UnsatisfiedLinkError | NoClassDefFoundError e) {
                // libvirt missing: open() reports it
            }
        }
    }

    /**
     * Runs a libvirt call unless the connection is closed or closing; its {@link LibvirtException} becomes a
     * {@link LibvirtBackendException} saying that libvirt could not do {@code what}.
     */
    <T> T call(String what, Call<T> call) throws LibvirtBackendException {
        Lock l = inFlight.readLock();
        if (closed.get() || !l.tryLock()) {
            throw closedError(what);
        }
        try {
            if (closed.get()) {
                throw closedError(what);
            }
            return call.apply(connect);
        } catch (LibvirtException e) {
            throw LibvirtErrors.wrap(what, e);
        } finally {
            l.unlock();
        }
    }

    private LibvirtBackendException closedError(String what) {
        return new LibvirtBackendException(BackendException.Kind.INVALID, "libvirt could not " + what + ": the connection"
                + " to " + uri + " is closed; connect again", null);
    }

    /** Registers native clean-up for {@link #close()} (e.g. deregistering an event listener). */
    void beforeClose(NativeStep step) {
        beforeClose.add(step);
    }

    boolean isClosed() {
        return closed.get();
    }

    public String uri() {
        return uri;
    }

    /** "libvirt 9.0.0, QEMU 7.2.0" (hypervisor part as the driver reports it). */
    public String versions() throws LibvirtBackendException {
        return call("read its version", c -> "libvirt " + version(c.getLibVersion()) + ", " + c.getType() + " "
                + version(c.getVersion()));
    }

    private static String version(long v) {
        return (v / 1_000_000) + "." + (v / 1000 % 1000) + "." + (v % 1000);
    }

    public String hostname() throws LibvirtBackendException {
        return call("read the host name", Connect::getHostName);
    }

    /** {@code <iommu support='yes|no'/>} of the host capabilities; empty when the driver does not say. */
    public Optional<Boolean> iommuSupport() throws LibvirtBackendException {
        return call("read the host capabilities", c -> Xml.all(Xml.parse(c.getCapabilities()), "iommu").stream()
                .findFirst().map(e -> "yes".equals(e.getAttribute("support"))));
    }

    /**
     * Every domain, running and defined, with its details; one that goes away while it is read (someone
     * undefined or stopped it meanwhile) is left out, not an error.
     */
    public List<VmInfo> domains() throws LibvirtBackendException {
        return call("list domains", DomainList::read);
    }

    /** Every PCI node device with its IOMMU group. */
    public PciInventory pciInventory() throws LibvirtBackendException {
        return call("list PCI devices", c -> {
            Map<PciAddress, PciDevice> devices = new LinkedHashMap<>();
            for (String name : c.listDevices("pci")) {
                Device dev = c.deviceLookupByName(name);
                try {
                    NodeDeviceXml.parse(dev.getXMLDescription()).ifPresent(p -> devices.put(p.device().address(), p.device()));
                } finally {
                    dev.free();
                }
            }
            return PciInventory.fromDevices(devices.values());
        });
    }

    public void define(VmSpec spec) throws LibvirtBackendException {
        call("define " + spec.name(), c -> {
            c.domainDefineXML(DomainXmlBuilder.build(spec)).free();
            return null;
        });
    }

    public void start(String name) throws LibvirtBackendException {
        onDomain(name, "start", Domain::create);
    }

    public void shutdown(String name) throws LibvirtBackendException {
        onDomain(name, "shut down", Domain::shutdown);
    }

    public void reboot(String name) throws LibvirtBackendException {
        onDomain(name, "reboot", d -> d.reboot(0));
    }

    public void forceOff(String name) throws LibvirtBackendException {
        onDomain(name, "force off", Domain::destroy);
    }

    /** Undefines a domain and its UEFI variables (NVRAM) and managed-save image; its disks stay. */
    public void undefine(String name) throws LibvirtBackendException {
        onDomain(name, "undefine", d -> {
            try {
                d.undefine(UNDEFINE_NVRAM | UNDEFINE_MANAGED_SAVE);
            } catch (LibvirtException e) {
                // drivers without NVRAM (the test driver) refuse the flags
                if (e.getMessage() == null || !e.getMessage().contains("unsupported flags")) {
                    throw e;
                }
                d.undefine();
            }
        });
    }

    /** Takes the device from its host driver for VM use ({@code virsh nodedev-detach}). */
    public void detach(PciAddress a) throws LibvirtBackendException {
        onDevice(a, "detach", Device::detach);
    }

    public void reattach(PciAddress a) throws LibvirtBackendException {
        onDevice(a, "reattach", Device::reAttach);
    }

    /** Something done to one domain. */
    @FunctionalInterface
    interface DomainOp<T> {
        T apply(Domain d) throws LibvirtException, LibvirtBackendException;
    }

    private interface DeviceOp {
        void apply(Device d) throws LibvirtException;
    }

    private interface VoidDomainOp {
        void apply(Domain d) throws LibvirtException;
    }

    private void onDomain(String name, String what, VoidDomainOp op) throws LibvirtBackendException {
        withDomain(name, what + " " + name, d -> {
            op.apply(d);
            return null;
        });
    }

    /** Looks a domain up by name, runs {@code op} on it and frees it; "no such domain" is NOT_FOUND. */
    <T> T withDomain(String name, String what, DomainOp<T> op) throws LibvirtBackendException {
        return call(what, c -> {
            Domain d = c.domainLookupByName(name);
            try {
                return op.apply(d);
            } finally {
                d.free();
            }
        });
    }

    private void onDevice(PciAddress a, String what, DeviceOp op) throws LibvirtBackendException {
        String name = a.libvirtNodeDevice();
        call(what + " " + a, c -> {
            Device d = c.deviceLookupByName(name);
            try {
                op.apply(d);
            } finally {
                d.free();
            }
            return null;
        });
    }

    /**
     * Refuses new calls at once; deregisters listeners and closes the native connection on a daemon thread once
     * the calls in flight have ended (with a dead host: when keepalive gives up), so the caller never waits.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        OffThread.start("libvirt-close " + uri, () -> {
            Lock l = inFlight.writeLock();
            l.lock();
            try {
                for (NativeStep step : beforeClose) {
                    try {
                        step.run(connect);
                    } catch (LibvirtException e) {
                        LOG.debug("closing {}: {}", uri, e.getMessage());
                    }
                }
                if (!beforeClose.isEmpty()) {
                    // an event queued before the listener went away may still be on its way on the event loop
                    TimeUnit.MILLISECONDS.sleep(DISPATCH_GRACE_MS);
                }
                connect.close();
            } catch (LibvirtException e) {
                LOG.debug("closing {}: {}", uri, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                l.unlock();
            }
        });
    }
}
