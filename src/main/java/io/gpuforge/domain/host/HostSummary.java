package io.gpuforge.domain.host;

import java.util.Objects;
import java.util.Optional;
import io.gpuforge.domain.pci.IommuState;

/**
 * The short description of a host shown for a connection: operating system, kernel, CPU, memory and
 * whether {@code /sys/kernel/iommu_groups} is populated. Unknown values are empty, never made up.
 *
 * @param iommuGroups number of IOMMU groups found; 0 when the directory is empty or absent
 */
public record HostSummary(String hostname, Optional<String> operatingSystem, Optional<String> kernel,
                          String architecture, Optional<String> cpuModel, Optional<String> cpuVendor,
                          int logicalCpus, Optional<Long> memoryBytes, IommuState iommu, int iommuGroups) {

    public HostSummary {
        Objects.requireNonNull(hostname);
        Objects.requireNonNull(operatingSystem);
        Objects.requireNonNull(kernel);
        Objects.requireNonNull(architecture);
        Objects.requireNonNull(cpuModel);
        Objects.requireNonNull(cpuVendor);
        Objects.requireNonNull(memoryBytes);
        Objects.requireNonNull(iommu);
        if (iommuGroups < 0 || logicalCpus < 0) {
            throw new IllegalArgumentException("counts cannot be negative");
        }
        if (iommu != IommuState.ENABLED && iommuGroups != 0) {
            throw new IllegalArgumentException("IOMMU groups present but IOMMU is " + iommu);
        }
    }
}
