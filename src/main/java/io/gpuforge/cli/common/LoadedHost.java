package io.gpuforge.cli.common;

import io.gpuforge.app.host.HostReading;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.IommuState;
import io.gpuforge.domain.pci.ListingReport;
import io.gpuforge.domain.pci.PciInventory;
import java.util.Optional;

/**
 * What a host source gave: facts, or for a listing (or a hypervisor's view) only its PCI inventory; for a
 * listing also what was skipped and where it is partial.
 */
public record LoadedHost(String source, IommuState iommu, PciInventory pci, Optional<HostFacts> facts,
                  Optional<ListingReport> listing) {

    public LoadedHost(String source, IommuState iommu, PciInventory pci, Optional<HostFacts> facts) {
        this(source, iommu, pci, facts, Optional.empty());
    }

    /** What a host source read: a host's facts, or a listing's inventory with what it skipped. */
    public static LoadedHost of(HostReading r) {
        return new LoadedHost(r.source(), r.iommu(), r.facts().pci(), r.isHost() ? Optional.of(r.facts())
                : Optional.empty(), r.listing());
    }
}
