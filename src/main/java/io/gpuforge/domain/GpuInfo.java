package io.gpuforge.domain;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmRef;

/**
 * A GPU of a connection and where it is: its node and PCI address (function 0 of the card), its name and
 * ids, its IOMMU group, the Proxmox PCI resource mapping that names it (if any), and the VM it is assigned to.
 * {@code assignmentKnown} is false when the backend could not tell without reading every VM's configuration
 * (Proxmox lists configurations one VM at a time): then an empty {@code assignedTo} means "unknown", not "free".
 */
public record GpuInfo(String node, PciAddress address, String name, Optional<String> ids, OptionalInt iommuGroup,
                      Optional<String> mapping, Optional<VmRef> assignedTo, boolean assignmentKnown) {

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
    }

    /** Known to be free: no VM has it. */
    public boolean free() {
        return assignmentKnown && assignedTo.isEmpty();
    }
}
