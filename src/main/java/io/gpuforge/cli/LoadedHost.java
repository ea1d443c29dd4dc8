package io.gpuforge.cli;

import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.IommuState;
import io.gpuforge.domain.PciInventory;
import io.gpuforge.host.ListingParser;
import java.util.Optional;

/**
 * What a host source gave: facts, or for a listing (or a hypervisor's view) only its PCI inventory; for a
 * listing also what was skipped and where it is partial.
 */
record LoadedHost(String source, IommuState iommu, PciInventory pci, Optional<HostFacts> facts,
                  Optional<ListingParser.Result> listing) {

    LoadedHost(String source, IommuState iommu, PciInventory pci, Optional<HostFacts> facts) {
        this(source, iommu, pci, facts, Optional.empty());
    }
}
