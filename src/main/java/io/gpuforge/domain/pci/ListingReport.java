package io.gpuforge.domain.pci;

import java.util.List;
import java.util.Set;

/**
 * What a pasted IOMMU listing shows: the inventory, the number of non-blank lines read, the lines that were not part
 * of the listing, and where it is incomplete (lines left out, a group without devices, a line cut off), with the
 * groups that may hold more devices than shown.
 */
public record ListingReport(PciInventory inventory, int lines, List<Line> skipped, List<Gap> gaps,
                            Set<Integer> groupsNotFullyShown) {

    /** A line of the input as pasted (1-based number). */
    public record Line(int number, String text) {
    }

    /** Where the listing is incomplete: the line and what is missing there. */
    public record Gap(int line, String reason) {
    }

    public ListingReport {
        skipped = List.copyOf(skipped);
        gaps = List.copyOf(gaps);
        groupsNotFullyShown = Set.copyOf(groupsNotFullyShown);
    }

    public boolean partial() {
        return !gaps.isEmpty();
    }
}
