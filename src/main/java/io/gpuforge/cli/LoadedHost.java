package io.gpuforge.cli;

import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.IommuState;
import io.gpuforge.domain.PciInventory;
import java.util.Optional;

/** What a host source gave: facts, or for a listing (or a hypervisor's view) only its PCI inventory. */
record LoadedHost(String source, IommuState iommu, PciInventory pci, Optional<HostFacts> facts) {
}
