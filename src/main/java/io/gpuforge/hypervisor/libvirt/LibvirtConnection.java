package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.PciAddress;
import io.gpuforge.domain.PciDevice;
import io.gpuforge.domain.PciInventory;
import io.gpuforge.domain.VmDetails;
import io.gpuforge.domain.VmInfo;
import io.gpuforge.domain.VmRef;
import io.gpuforge.domain.VmState;
import io.gpuforge.domain.VmSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.libvirt.Connect;
import org.libvirt.Device;
import org.libvirt.Domain;
import org.libvirt.DomainInfo;
import org.libvirt.LibvirtException;
import org.w3c.dom.Element;

/**
 * One libvirt connection ({@code qemu:///system}, {@code qemu+ssh://…}, {@code test:///file.xml}) behind
 * GPUForge's own types: host, domains, PCI devices and IOMMU groups, define/start/stop/undefine, node
 * device detach/reattach. Every {@link LibvirtException} becomes a {@link LibvirtBackendException} with
 * libvirt's message. Closed explicitly. Blocking: call off the FX thread.
 */
public final class LibvirtConnection implements AutoCloseable {

    private static volatile boolean quiet;
    private final Connect connect;
    private final String uri;

    private LibvirtConnection(String uri, Connect connect) {
        this.uri = uri;
        this.connect = connect;
    }

    public static LibvirtConnection open(String uri) throws LibvirtBackendException {
        silenceStderr();
        // libvirt wants its event loop registered before the first connection of the process; doing it
        // here means no connection can race the registration (a deadlock seen when both ran at once)
        new LibvirtEventLoop().start();
        try {
            return new LibvirtConnection(uri, new Connect(uri, false));
        } catch (LibvirtException e) {
            throw wrap("connect to " + uri, e);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw new LibvirtBackendException("libvirt is not installed on this computer (apt-get install libvirt0): "
                    + e.getMessage(), e);
        }
    }

    /** libvirt prints every error to stderr by default; we report them ourselves. */
    private static void silenceStderr() {
        if (!quiet) {
            try {
                Connect.setErrorCallback(new org.libvirt.jna.Libvirt.VirErrorCallback() {
                    @Override
                    public void errorCallback(com.sun.jna.Pointer userData, org.libvirt.jna.virError error) {
                        // reported through the exception of the failing call
                    }
                });
                quiet = true;
            } catch (LibvirtException | UnsatisfiedLinkError | NoClassDefFoundError e) {
                // libvirt missing: open() reports it
            }
        }
    }

    static LibvirtBackendException wrap(String what, LibvirtException e) {
        String m = e.getError() != null && e.getError().getMessage() != null ? e.getError().getMessage() : e.getMessage();
        return new LibvirtBackendException("libvirt could not " + what + ": " + m, e);
    }

    public String uri() {
        return uri;
    }

    /** "libvirt 9.0.0, QEMU 7.2.0" (hypervisor part as the driver reports it). */
    public String versions() throws LibvirtBackendException {
        try {
            return "libvirt " + version(connect.getLibVersion()) + ", " + connect.getType() + " " + version(connect.getVersion());
        } catch (LibvirtException e) {
            throw wrap("read its version", e);
        }
    }

    private static String version(long v) {
        return (v / 1_000_000) + "." + (v / 1000 % 1000) + "." + (v % 1000);
    }

    public String hostname() throws LibvirtBackendException {
        try {
            return connect.getHostName();
        } catch (LibvirtException e) {
            throw wrap("read the host name", e);
        }
    }

    /** {@code <iommu support='yes|no'/>} of the host capabilities; empty when the driver does not say. */
    public Optional<Boolean> iommuSupport() throws LibvirtBackendException {
        try {
            Element caps = Xml.parse(connect.getCapabilities());
            return Xml.all(caps, "iommu").stream().findFirst().map(e -> "yes".equals(e.getAttribute("support")));
        } catch (LibvirtException e) {
            throw wrap("read the host capabilities", e);
        }
    }

    public List<VmInfo> domains() throws LibvirtBackendException {
        try {
            List<Domain> all = new ArrayList<>();
            for (int id : connect.listDomains()) {
                all.add(connect.domainLookupByID(id));
            }
            for (String name : connect.listDefinedDomains()) {
                all.add(connect.domainLookupByName(name));
            }
            String host = connect.getHostName();
            List<VmInfo> out = new ArrayList<>();
            for (Domain d : all) {
                try {
                    DomainInfo info = d.getInfo();
                    VmDetails details = DomainDetails.parse(d.getXMLDesc(0));
                    out.add(new VmInfo(new VmRef(host, d.getName()), d.getName(), state(info.state), false,
                            info.nrVirtCpu, info.maxMem * 1024, Optional.of(details)));
                } finally {
                    d.free();
                }
            }
            return out;
        } catch (LibvirtException e) {
            throw wrap("list domains", e);
        }
    }

    static VmState state(DomainInfo.DomainState s) {
        switch (s) {
            case VIR_DOMAIN_RUNNING:
            case VIR_DOMAIN_BLOCKED:
                return VmState.RUNNING;
            case VIR_DOMAIN_PAUSED:
                return VmState.PAUSED;
            case VIR_DOMAIN_SHUTDOWN:
            case VIR_DOMAIN_SHUTOFF:
                return VmState.STOPPED;
            case VIR_DOMAIN_CRASHED:
                return VmState.CRASHED;
            default:
                return VmState.UNKNOWN;
        }
    }

    /** Every PCI node device with its IOMMU group. */
    public PciInventory pciInventory() throws LibvirtBackendException {
        try {
            Map<PciAddress, PciDevice> devices = new LinkedHashMap<>();
            for (String name : connect.listDevices("pci")) {
                Device dev = connect.deviceLookupByName(name);
                try {
                    NodeDeviceXml.parse(dev.getXMLDescription()).ifPresent(p -> devices.put(p.device().address(), p.device()));
                } finally {
                    dev.free();
                }
            }
            return PciInventory.fromDevices(devices.values());
        } catch (LibvirtException e) {
            throw wrap("list PCI devices", e);
        }
    }

    public void define(VmSpec spec) throws LibvirtBackendException {
        try {
            connect.domainDefineXML(DomainXmlBuilder.build(spec)).free();
        } catch (LibvirtException e) {
            throw wrap("define " + spec.name(), e);
        }
    }

    public void start(String name) throws LibvirtBackendException {
        onDomain(name, "start", Domain::create);
    }

    public void shutdown(String name) throws LibvirtBackendException {
        onDomain(name, "shut down", Domain::shutdown);
    }

    public void forceOff(String name) throws LibvirtBackendException {
        onDomain(name, "force off", Domain::destroy);
    }

    public void undefine(String name) throws LibvirtBackendException {
        // UEFI domains keep an NVRAM file: remove it too; drivers without NVRAM refuse the flag
        onDomain(name, "undefine", d -> {
            try {
                d.undefine(4 /* VIR_DOMAIN_UNDEFINE_NVRAM */);
            } catch (LibvirtException e) {
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

    private interface DomainOp {
        void apply(Domain d) throws LibvirtException;
    }

    private interface DeviceOp {
        void apply(Device d) throws LibvirtException;
    }

    private void onDomain(String name, String what, DomainOp op) throws LibvirtBackendException {
        try {
            Domain d = connect.domainLookupByName(name);
            try {
                op.apply(d);
            } finally {
                d.free();
            }
        } catch (LibvirtException e) {
            throw wrap(what + " " + name, e);
        }
    }

    private void onDevice(PciAddress a, String what, DeviceOp op) throws LibvirtBackendException {
        String name = String.format(Locale.ROOT, "pci_%04x_%02x_%02x_%x", a.domain(), a.bus(), a.slot(), a.function());
        try {
            Device d = connect.deviceLookupByName(name);
            try {
                op.apply(d);
            } finally {
                d.free();
            }
        } catch (LibvirtException e) {
            throw wrap(what + " " + a, e);
        }
    }

    @Override
    public void close() {
        try {
            connect.close();
        } catch (LibvirtException e) {
            // closing: nothing left to do
        }
    }
}
