package io.gpuforge.domain;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A GPU of a connection and where it is: its node and PCI address (function 0 of the card), its name and
 * ids, its IOMMU group, the Proxmox PCI resource mapping that names it (if any), and the VM it is assigned to,
 * as far as the backend can tell without reading every VM.
 */
public record GpuInfo(String node, PciAddress address, String name, Optional<String> ids, OptionalInt iommuGroup,
                      Optional<String> mapping, Optional<VmRef> assignedTo) {

    public GpuInfo {
        Objects.requireNonNull(node);
        Objects.requireNonNull(address);
        Objects.requireNonNull(name);
        Objects.requireNonNull(ids);
        Objects.requireNonNull(iommuGroup);
        Objects.requireNonNull(mapping);
        Objects.requireNonNull(assignedTo);
    }
}
