package io.gpuforge.domain.pci;

import java.util.List;

/** An IOMMU group and its member functions, sorted. */
public record IommuGroup(int id, List<PciAddress> members) {

    public IommuGroup {
        if (id < 0) {
            throw new IllegalArgumentException("IOMMU group id cannot be negative: " + id);
        }
        members = members.stream().sorted().distinct().toList();
    }
}
