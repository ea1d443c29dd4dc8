package io.gpuforge.app.passthrough;

import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.vm.GpuAttachRequest;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.pci.NodePci;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Giving a GPU to a VM and taking it back, the same for the window and the CLI over any backend: every function of
 * the card (as the node's hypervisor lists them) goes with it, written against the configuration's version so a VM
 * changed meanwhile is refused ({@code BackendException.Kind.CONFLICT}) and nothing is clobbered; and learning who
 * has which GPU from the VMs' configurations, remembering which were read. Blocking; thread-safe.
 */
public final class GpuAssignments {

    private static final Logger LOG = LoggerFactory.getLogger(GpuAssignments.class);

    /** The VMs whose configuration {@link #learnAssignments} read and that the change feed did not report since. */
    private final Set<VmRef> learned = ConcurrentHashMap.newKeySet();

    /** What to attach: the card (any of its functions), primary display or not, mapping name and EFI disk storage. */
    public record Attach(VmRef vm, PciAddress device, boolean primaryGpu, Optional<String> mapping,
                         Optional<String> efiStorage) {
    }

    /** A Proxmox PCI resource mapping no VM uses, with the card it names. */
    public record UnusedMapping(String id, String node, PciAddress card) {
    }

    /** Every function of {@code device}'s card on the node, as its hypervisor lists them. */
    public List<PciAddress> functions(ConnectionSession s, String node, PciAddress device) throws BackendException {
        NodePci pci = s.nodePci(node);
        if (pci.inventory().device(device).isEmpty()) {
            throw new BackendException(BackendException.Kind.NOT_FOUND, device + " is not a PCI device of " + node
                    + " (" + s.connection().name() + ")");
        }
        return pci.inventory().devices().stream().map(PciDevice::address).filter(device::sameSlot).sorted().toList();
    }

    /** Reads the VM's configuration and attaches against its version. */
    public GpuAttachResult attach(ConnectionSession s, Attach a) throws BackendException {
        return attach(s, a, s.readConfig(a.vm()).version());
    }

    /**
     * Attaches against {@code basedOnVersion}, the version the user saw: a VM changed since is refused as
     * {@code CONFLICT} with nothing written; read it again and retry.
     */
    public GpuAttachResult attach(ConnectionSession s, Attach a, String basedOnVersion) throws BackendException {
        return attach(s, request(s, a, basedOnVersion));
    }

    /** Attaches as {@code request} says (a pre-flight made it): a VM changed since is refused as {@code CONFLICT}. */
    public GpuAttachResult attach(ConnectionSession s, GpuAttachRequest request) throws BackendException {
        requireAttach(s);
        try {
            return s.attachGpu(request);
        } catch (BackendException e) {
            if (e.kind() == BackendException.Kind.CONFLICT) {
                throw new BackendException(BackendException.Kind.CONFLICT, "VM " + request.vm().id() + " changed after its"
                        + " configuration was read (someone else edited it): nothing was written. Read it again and"
                        + " retry. (" + e.getMessage() + ")", e);
            }
            throw e;
        }
    }

    /** The backend's request for {@code a}: every function of the card, against {@code basedOnVersion}. */
    GpuAttachRequest request(ConnectionSession s, Attach a, String basedOnVersion) throws BackendException {
        return request(s, a, basedOnVersion, List.of());
    }

    /** The same, taking away the cards in {@code replacing} in the same write. */
    GpuAttachRequest request(ConnectionSession s, Attach a, String basedOnVersion, List<PciAddress> replacing)
            throws BackendException {
        requireAttach(s);
        List<PciAddress> functions = functions(s, a.vm().node(), a.device());
        return new GpuAttachRequest(a.vm(), functions, a.primaryGpu(), a.mapping(), a.efiStorage(), basedOnVersion,
                replacing);
    }

    /** Takes every function of the card in {@code device}'s slot away from the VM. */
    public GpuAttachResult detach(ConnectionSession s, VmRef vm, PciAddress device) throws BackendException {
        requireAttach(s);
        VmConfig c = s.readConfig(vm);
        return s.detachGpu(vm, device, c.version());
    }

    /** The GPUs a VM has (function 0 of each card), as its configuration says. */
    public List<PciAddress> gpusOf(ConnectionSession s, VmRef vm) throws BackendException {
        Set<PciAddress> cards = new LinkedHashSet<>();
        for (PciAddress a : s.readConfig(vm).details().hostDevices()) {
            cards.add(new PciAddress(a.domain(), a.bus(), a.slot(), 0));
        }
        return new ArrayList<>(cards);
    }

    /** The VMs of a connection that have a function of {@code card} on its node. */
    public List<VmRef> holders(ConnectionSession s, String node, PciAddress card) throws BackendException {
        List<VmRef> out = new ArrayList<>();
        for (VmInfo v : s.inventory().vmsOn(node)) {
            if (s.readConfig(v.ref()).details().hostDevices().stream().anyMatch(card::sameSlot)) {
                out.add(v.ref());
            }
        }
        return out;
    }

    /**
     * Reads the configuration of each VM (templates aside) on the nodes where the inventory could not tell who has a
     * GPU (Proxmox lists no VM's devices, and a GPU given through a PCI resource mapping is named only in the VM's
     * configuration): the inventory read next knows them. A VM whose configuration this instance read before and that
     * the change feed did not report changed since ({@link #changed}) is not read again: after a VM was added to a node
     * of 125, a refresh reads one configuration, not 126. A VM that cannot be read is left out. Returns how many were
     * read.
     */
    public int learnAssignments(ConnectionSession s, ClusterInventory inv) {
        Set<String> nodes = new LinkedHashSet<>();
        for (GpuInfo g : inv.gpus()) {
            if (!g.assignmentKnown()) {
                nodes.add(g.node());
            }
        }
        int read = 0;
        for (VmInfo v : inv.vms()) {
            if (!v.template() && nodes.contains(v.ref().node()) && !learned.contains(v.ref())) {
                try {
                    s.readConfig(v.ref());
                    learned.add(v.ref());
                    read++;
                } catch (BackendException e) {
                    LOG.debug("The configuration of VM {} on {} could not be read: {}", v.ref().id(), v.ref().node(),
                            e.getMessage());
                }
            }
        }
        return read;
    }

    /**
     * What the change feed reported: a VM whose configuration changed, that came or went, is read again by the next
     * {@link #learnAssignments}; a reconnection or a change of everything ({@code CONNECTION}, {@code INVENTORY}: the
     * backend may have forgotten what it read) has every VM read again.
     */
    public void changed(ChangeEvent e) {
        switch (e.kind()) {
            case VM_CONFIG:
            case VM_ADDED:
            case VM_REMOVED:
                e.vm().ifPresent(learned::remove);
                break;
            case CONNECTION:
            case INVENTORY:
                learned.clear();
                break;
            default:
                break;
        }
    }

    /** Proxmox PCI resource mappings of GPUs that no VM's configuration uses (read from every VM). */
    public List<UnusedMapping> unusedMappings(ConnectionSession s) throws BackendException {
        ClusterInventory inv = s.inventory();
        Set<String> used = new LinkedHashSet<>();
        for (VmInfo v : inv.vms()) {
            used.addAll(s.readConfig(v.ref()).details().pciMappings());
        }
        List<UnusedMapping> out = new ArrayList<>();
        for (GpuInfo g : inv.gpus()) {
            if (g.mapping().isPresent() && !used.contains(g.mapping().get())) {
                out.add(new UnusedMapping(g.mapping().get(), g.node(), g.address()));
            }
        }
        return out;
    }

    private static void requireAttach(ConnectionSession s) throws BackendException {
        if (!s.can(Capability.GPU_ATTACH)) {
            throw new BackendException(BackendException.Kind.UNSUPPORTED, s.connection().name() + " cannot pass GPUs"
                    + " through to its VMs");
        }
    }
}
