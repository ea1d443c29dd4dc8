package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.BackendException.Kind;
import io.gpuforge.domain.vm.GpuAttachRequest;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.libvirt.Error.ErrorNumber;
import org.libvirt.LibvirtException;
import org.w3c.dom.Element;

/**
 * A GPU given to a domain and taken back, in its inactive XML: a managed {@code <hostdev>} per function, the
 * functions of one card on one guest slot (multifunction on function 0), on a free PCIe root port of a q35
 * machine (a new one when none is free), or on a free slot of the legacy PCI bus of an i440fx machine.
 *
 * <p>libvirt lets an i440fx or BIOS domain have a GPU, so this does not refuse one: the result's changes warn
 * that q35 with UEFI (OVMF) is what modern GPUs and their drivers expect. A running domain gets the GPU
 * the next time it starts.
 */
final class GpuAttach {

    private static final int FIRST_LEGACY_SLOT = 3; // 0 host bridge, 1 PIIX, 2 video on i440fx

    private final LibvirtConnection connection;
    private final DomainConfigs configs;

    GpuAttach(LibvirtConnection connection, DomainConfigs configs) {
        this.connection = connection;
        this.configs = configs;
    }

    GpuAttachResult attach(GpuAttachRequest r, List<VmInfo> domains) throws LibvirtBackendException {
        return attach(r, domains, false);
    }

    /** What {@link #attach} would change, with the domain left as it is. */
    GpuAttachResult preview(GpuAttachRequest r, List<VmInfo> domains) throws LibvirtBackendException {
        return attach(r, domains, true);
    }

    private GpuAttachResult attach(GpuAttachRequest r, List<VmInfo> domains, boolean dryRun)
            throws LibvirtBackendException {
        VmRef vm = r.vm();
        PciAddress gpu = r.gpu();
        for (PciAddress f : r.functions()) {
            if (!f.sameSlot(gpu)) {
                throw new LibvirtBackendException(Kind.INVALID, "the functions " + r.functions() + " are of more than"
                        + " one card: attach one card (its functions share a slot, e.g. 0000:01:00.0 and .1) at a time", null);
            }
        }
        List<String> changes = new ArrayList<>();
        for (PciAddress f : r.functions()) {
            if (!hostHas(f)) {
                changes.add("warning: this host has no PCI device " + f + ": " + vm.id() + " will not start until it has");
            }
            for (VmInfo other : domains) {
                if (!other.ref().equals(vm) && other.hostDevices().contains(f)) {
                    changes.add("warning: " + f + " is also given to " + other.name() + ": only one of them can run at a time");
                }
            }
        }
        boolean running = connection.withDomain(vm.id(), "read the state of " + vm.id(), d -> d.isActive() == 1);
        DomainConfigs.Edit edit = root -> {
            try {
                place(root, r, changes);
            } catch (Xml.Malformed e) {
                throw new LibvirtBackendException(Kind.PROTOCOL, "The domain XML of " + vm.id() + ": " + e.getMessage(),
                        e);
            }
            return root;
        };
        if (dryRun) {
            VmConfig now = configs.tryOn(vm, r.basedOnVersion(), edit);
            if (running) {
                changes.add(vm.id() + " is running: it gets the GPU the next time it starts");
            }
            return new GpuAttachResult(changes, now);
        }
        VmConfig after = configs.redefine(vm, r.basedOnVersion(), edit);
        if (!after.details().hostDevices().containsAll(r.functions())) {
            throw new LibvirtBackendException(Kind.FAILED, "libvirt took the new configuration of " + vm.id()
                    + " but dropped its <hostdev> elements: see libvirtd's log", null);
        }
        if (running) {
            changes.add(vm.id() + " is running: it gets the GPU the next time it starts");
        }
        if (r.primaryGpu()) {
            changes.add("primary display: the guest uses the GPU once its driver loads; to make it the only display,"
                    + " set the <video> model of " + vm.id() + " to 'none'");
        }
        return new GpuAttachResult(changes, after);
    }

    private void place(Element domain, GpuAttachRequest r, List<String> changes) throws LibvirtBackendException {
        Element devices = Xml.child(domain, "devices").orElseGet(() -> {
            Element d = domain.getOwnerDocument().createElement("devices");
            domain.appendChild(d);
            return d;
        });
        for (PciAddress old : r.replacing()) { // the cards this one replaces leave in the same write
            boolean gone = false;
            for (Element h : Xml.children(devices, "hostdev")) {
                Optional<PciAddress> src = HostdevXml.isPci(h) ? HostdevXml.source(h) : Optional.empty();
                if (src.isPresent() && src.get().sameSlot(old)) {
                    devices.removeChild(h);
                    changes.add("removed <hostdev> " + src.get());
                    gone = true;
                }
            }
            if (!gone) {
                throw new LibvirtBackendException(Kind.INVALID, "no function of the card " + slot(old) + " is passed"
                        + " through to " + r.vm().id() + ": nothing to replace", null);
            }
        }
        for (Element h : Xml.children(devices, "hostdev")) {
            Optional<PciAddress> src = HostdevXml.isPci(h) ? HostdevXml.source(h) : Optional.empty();
            if (src.isPresent() && r.functions().contains(src.get())) {
                throw new LibvirtBackendException(Kind.INVALID, src.get() + " is passed through to " + r.vm().id()
                        + " already", null);
            }
        }
        String machine = Xml.child(domain, "os").flatMap(o -> Xml.child(o, "type")).map(t -> t.getAttribute("machine"))
                .orElse("");
        boolean q35 = machine.contains("q35");
        boolean uefi = Xml.child(domain, "os").map(o -> "efi".equals(o.getAttribute("firmware"))
                || Xml.child(o, "loader").isPresent()).orElse(false);
        if (!q35) {
            changes.add("warning: the machine type of " + r.vm().id() + " is " + (machine.isEmpty() ? "i440fx" : machine)
                    + ", not q35: the GPU goes on its legacy PCI bus; q35 with UEFI (OVMF) is what GPU passthrough is"
                    + " tested with");
        }
        if (!uefi) {
            changes.add("warning: " + r.vm().id() + " boots with BIOS (SeaBIOS): many GPUs need UEFI (OVMF) firmware"
                    + " to initialise in a VM");
        }
        int bus;
        int slot;
        if (q35) {
            bus = rootPort(devices, changes);
            slot = 0;
        } else {
            bus = 0;
            slot = freeLegacySlot(devices);
        }
        boolean multi = r.functions().size() > 1;
        for (PciAddress f : r.functions()) {
            PciAddress guest = new PciAddress(0, bus, slot, multi ? f.function() : 0);
            boolean first = multi && f.equals(r.functions().get(0));
            devices.appendChild(HostdevXml.hostdev(domain.getOwnerDocument(), f, guest, first));
            changes.add(HostdevXml.describe(f, guest, first));
        }
    }

    /** The bus of a PCIe root port with nothing on it; a new port when every one is taken. */
    private static int rootPort(Element devices, List<String> changes) {
        Set<Integer> used = usedBuses(devices);
        int max = 0;
        Element last = null;
        for (Element c : Xml.children(devices, "controller")) {
            if (!"pci".equals(c.getAttribute("type"))) {
                continue;
            }
            int index = Xml.attr(c, "index").map(v -> Xml.number(c, "index")).orElse(0);
            max = Math.max(max, index);
            last = c;
            if ("pcie-root-port".equals(c.getAttribute("model")) && !used.contains(index)) {
                return index;
            }
        }
        int index = max + 1;
        Element port = HostdevXml.rootPort(devices.getOwnerDocument(), index);
        devices.insertBefore(port, last == null ? null : last.getNextSibling());
        changes.add("<controller type='pci' model='pcie-root-port' index='" + index + "'/> (a new PCIe root port)");
        return index;
    }

    private static Set<Integer> usedBuses(Element devices) {
        Set<Integer> used = new HashSet<>();
        for (Element a : Xml.all(devices, "address")) {
            if ("pci".equals(a.getAttribute("type"))) {
                used.add(Xml.number(a, "bus"));
            }
        }
        return used;
    }

    private static int freeLegacySlot(Element devices) throws LibvirtBackendException {
        Set<Integer> used = new HashSet<>();
        for (Element a : Xml.all(devices, "address")) {
            if ("pci".equals(a.getAttribute("type")) && Xml.number(a, "bus") == 0) {
                used.add(Xml.number(a, "slot"));
            }
        }
        for (int s = FIRST_LEGACY_SLOT; s < 32; s++) {
            if (!used.contains(s)) {
                return s;
            }
        }
        throw new LibvirtBackendException(Kind.INVALID, "every slot of the VM's PCI bus is taken: remove a device first", null);
    }

    GpuAttachResult detach(VmRef vm, PciAddress gpu, String basedOnVersion) throws LibvirtBackendException {
        List<String> changes = new ArrayList<>();
        VmConfig after = configs.redefine(vm, basedOnVersion, root -> {
            for (Element devices : Xml.children(root, "devices")) {
                for (Element h : Xml.children(devices, "hostdev")) {
                    Optional<PciAddress> src = HostdevXml.isPci(h) ? HostdevXml.source(h) : Optional.empty();
                    if (src.isPresent() && src.get().sameSlot(gpu)) {
                        devices.removeChild(h);
                        changes.add("removed <hostdev> " + src.get());
                    }
                }
            }
            if (changes.isEmpty()) {
                throw new LibvirtBackendException(Kind.INVALID, "no function of the card " + slot(gpu)
                        + " is passed through to " + vm.id() + ": nothing to take away", null);
            }
            return root;
        });
        return new GpuAttachResult(changes, after);
    }

    private boolean hostHas(PciAddress a) throws LibvirtBackendException {
        String name = a.libvirtNodeDevice();
        return connection.call("look up the PCI device " + a, c -> {
            try {
                c.deviceLookupByName(name).free();
                return true;
            } catch (LibvirtException e) {
                if (e.getError() != null && e.getError().getCode() == ErrorNumber.VIR_ERR_NO_NODE_DEVICE) {
                    return false;
                }
                throw e;
            }
        });
    }

    private static String slot(PciAddress a) {
        return a.slotAddress();
    }
}
