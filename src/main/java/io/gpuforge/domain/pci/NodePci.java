package io.gpuforge.domain.pci;

import java.util.Objects;

/** A node's PCI functions and IOMMU groups as its hypervisor reports them, and what it says of the IOMMU. */
public record NodePci(String node, PciInventory inventory, IommuState iommu) {

    public NodePci {
        Objects.requireNonNull(node);
        Objects.requireNonNull(inventory);
        Objects.requireNonNull(iommu);
    }
}
