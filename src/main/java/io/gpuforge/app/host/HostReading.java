package io.gpuforge.app.host;

import io.gpuforge.domain.passthrough.Coverage;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.IommuState;
import io.gpuforge.domain.pci.ListingReport;
import java.util.Objects;
import java.util.Optional;

/**
 * What was read of a host: its facts (for a pasted listing, the facts a listing can tell, everything else unknown)
 * and, for a listing, what was skipped and where it is partial.
 */
public record HostReading(HostFacts facts, Optional<ListingReport> listing) {

    public HostReading {
        Objects.requireNonNull(facts);
        Objects.requireNonNull(listing);
    }

    public String source() {
        return facts.source();
    }

    /** Whether the facts come from a live host or a copy of one (not a pasted listing). */
    public boolean isHost() {
        return listing.isEmpty();
    }

    /** The IOMMU's state; for a listing, on when it shows groups. */
    public IommuState iommu() {
        return listing.map(l -> l.inventory().groups().isEmpty() ? IommuState.DISABLED : IommuState.ENABLED)
                .orElse(facts.iommu());
    }

    /** How much of the host's topology the facts show (what the checks may conclude). */
    public Coverage coverage() {
        return listing.map(l -> Coverage.listing(l.partial(), l.groupsNotFullyShown())).orElse(Coverage.wholeHost());
    }
}
