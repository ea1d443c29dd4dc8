package io.gpuforge.app.passthrough;

import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.pci.NodePci;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.vm.GpuAttachRequest;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The VM's side of giving it a card, checked before anything changes, for {@code gpuforge passthrough} and the
 * passthrough wizard alike: the card held by no other VM, the GPUs the VM has already (kept only when asked), and
 * the hypervisor's own dry run of the attach (a running Proxmox VE VM, no free {@code hostpciN}, no storage for an EFI
 * disk, the card there already), whose lines are exactly what the attach will write. Reads only. Blocking.
 */
public final class AttachPreflight {

    /**
     * What the VM would get, and every reason it cannot (empty when it can).
     *
     * @param vmName the VM's name (its id when it has none)
     * @param changes the attach's lines, as the hypervisor will write them (empty when its dry run refused)
     * @param version the VM configuration's version they are planned against
     * @param kept the GPUs the VM has and keeps
     */
    public record Result(String vmName, List<String> changes, String version, List<String> kept,
                         List<String> refusals, Optional<GpuAttachRequest> request) {
        public Result {
            changes = List.copyOf(changes);
            kept = List.copyOf(kept);
            refusals = List.copyOf(refusals);
        }

        /** Shown and confirmed already (the one-click run's plan): the attach checks again against these lines. */
        public Result(String vmName, List<String> changes, String version, List<String> kept, List<String> refusals) {
            this(vmName, changes, version, kept, refusals, Optional.empty());
        }

        public boolean ok() {
            return refusals.isEmpty();
        }
    }

    private final GpuAssignments assignments;

    public AttachPreflight(GpuAssignments assignments) {
        this.assignments = assignments;
    }

    /** What becomes of the GPUs a VM has: refused (the default), kept beside the new one, or replaced by it. */
    public enum Held { REFUSE, KEEP, REPLACE }

    /** Checks giving {@code card} to {@code vm}, the GPUs it has dealt with as {@code held} says. */
    public Result check(ConnectionSession s, VmRef vm, PciAddress card, boolean primaryGpu, Held held)
            throws BackendException {
        List<String> refused = new ArrayList<>();
        List<VmInfo> vms = s.inventory().vmsOn(vm.node());
        String vmName = name(vms, vm);
        NodePci pci = s.nodePci(vm.node());
        for (VmRef other : assignments.holders(s, vm.node(), card)) {
            if (!other.equals(vm)) {
                refused.add(card.slotAddress() + " is passed through to VM " + other.id() + " (" + name(vms, other)
                        + ") already: take it away there first (gpuforge detach --connection \"" + s.connection().name()
                        + "\" --vm " + other.id() + " --device " + card + ")");
            }
        }
        VmConfig config = s.readConfig(vm);
        List<String> kept = new ArrayList<>();
        List<PciAddress> gpus = new ArrayList<>();
        for (PciAddress h : cards(config)) {
            Optional<PciDevice> d = pci.inventory().device(h);
            if (!h.sameSlot(card) && d.map(PciDevice::isGpu).orElse(false)) {
                kept.add(h + d.flatMap(PciDevice::name).map(n -> " (" + n + ")").orElse(""));
                gpus.add(h);
            }
        }
        if (!gpus.isEmpty() && held == Held.REFUSE) {
            refused.add("VM " + vm.id() + " (" + vmName + ") has a GPU already: " + String.join(", ", kept)
                    + ". Give it this one as well (--add-gpu), or this one instead (--replace-gpu), or take that one"
                    + " away first (gpuforge detach --connection \"" + s.connection().name() + "\" --vm " + vm.id()
                    + " --device " + gpus.get(0) + ")");
        }
        List<PciAddress> replacing = held == Held.REPLACE ? gpus : List.of();
        List<String> changes = List.of();
        Optional<GpuAttachRequest> request = Optional.empty();
        try {
            GpuAttachRequest req = assignments.request(s, new GpuAssignments.Attach(vm, card, primaryGpu,
                    Optional.empty(), Optional.empty()), config.version(), replacing);
            changes = s.previewGpuAttach(req).changes();
            request = Optional.of(req);
        } catch (BackendException e) {
            if (e.kind() != BackendException.Kind.INVALID && e.kind() != BackendException.Kind.NOT_FOUND
                    && e.kind() != BackendException.Kind.CONFLICT) {
                throw e;
            }
            refused.add(e.getMessage());
        }
        return new Result(vmName, changes, config.version(), held == Held.REPLACE ? List.of() : kept, refused,
                request);
    }

    /** The cards (function 0) a VM's configuration gives it. */
    private static Set<PciAddress> cards(VmConfig c) {
        Set<PciAddress> out = new LinkedHashSet<>();
        for (PciAddress a : c.details().hostDevices()) {
            out.add(new PciAddress(a.domain(), a.bus(), a.slot(), 0));
        }
        return out;
    }

    private static String name(List<VmInfo> vms, VmRef ref) {
        return vms.stream().filter(v -> v.ref().equals(ref)).map(VmInfo::name).findFirst().orElse(ref.id());
    }
}
