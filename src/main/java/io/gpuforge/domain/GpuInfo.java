package io.gpuforge.domain;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmState;

/**
 * A GPU of a connection and where it is: its node and PCI address (function 0 of the card), its name and
 * ids, its IOMMU group, the Proxmox PCI resource mapping that names it (if any), and the VM it is assigned to.
 * {@code assignmentKnown} is false when the backend could not tell without reading every VM's configuration
 * (Proxmox lists configurations one VM at a time): then an empty {@code assignedTo} means "unknown", not "free".
 * {@code alsoIn}: the other VMs whose configuration names the same card (only one of them can start with it);
 * {@code assignedTo} is the running one, else the one with the lowest id, so every view names the same holder.
 */
public record GpuInfo(String node, PciAddress address, String name, Optional<String> ids, OptionalInt iommuGroup,
                      Optional<String> mapping, Optional<VmRef> assignedTo, boolean assignmentKnown,
                      List<VmRef> alsoIn) {

    public GpuInfo {
        Objects.requireNonNull(node);
        Objects.requireNonNull(address);
        Objects.requireNonNull(name);
        Objects.requireNonNull(ids);
        Objects.requireNonNull(iommuGroup);
        Objects.requireNonNull(mapping);
        Objects.requireNonNull(assignedTo);
        if (assignedTo.isPresent() && !assignmentKnown) {
            throw new IllegalArgumentException("a GPU assigned to " + assignedTo.get() + " has a known assignment");
        }
        alsoIn = List.copyOf(alsoIn);
        if (!alsoIn.isEmpty() && assignedTo.isEmpty()) {
            throw new IllegalArgumentException("a GPU named by other VMs is assigned to one of them");
        }
    }

    /** A GPU that at most one VM names. */
    public GpuInfo(String node, PciAddress address, String name, Optional<String> ids, OptionalInt iommuGroup,
                   Optional<String> mapping, Optional<VmRef> assignedTo, boolean assignmentKnown) {
        this(node, address, name, ids, iommuGroup, mapping, assignedTo, assignmentKnown, List.of());
    }

    /**
     * The VMs that name one card in the order every view tells them: a running one first (it has the card now), then
     * by id (numbers as numbers); the first is the holder.
     */
    public static List<VmInfo> holdersFirst(java.util.Collection<VmInfo> naming) {
        return naming.stream().sorted(java.util.Comparator.comparing((VmInfo v) -> v.state() != VmState.RUNNING)
                .thenComparing(v -> v.ref().id().length()).thenComparing(v -> v.ref().id())).toList();
    }

    /** Every VM whose configuration names the card, its holder first. */
    public List<VmRef> configuredIn() {
        List<VmRef> out = new java.util.ArrayList<>();
        assignedTo.ifPresent(out::add);
        out.addAll(alsoIn);
        return List.copyOf(out);
    }

    /** Known to be free: no VM has it. */
    public boolean free() {
        return assignmentKnown && assignedTo.isEmpty();
    }
}
