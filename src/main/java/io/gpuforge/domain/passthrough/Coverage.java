package io.gpuforge.domain.passthrough;

import java.util.Set;

/**
 * How much of a host's PCI topology the facts show. A live host (sysfs, SSH) or a hypervisor shows all of
 * it; a pasted listing shows the groups it lists, and may be partial: lines left out, so some groups may
 * hold more devices than shown, a device may be missing, and a device without a group there is one whose
 * group was not shown, not one the IOMMU left out.
 *
 * @param pastedListing the facts come from a pasted listing
 * @param partial the listing is known to be incomplete
 * @param groupsNotFullyShown groups that may hold more devices than the facts show
 */
public record Coverage(boolean pastedListing, boolean partial, Set<Integer> groupsNotFullyShown) {

    public Coverage {
        groupsNotFullyShown = Set.copyOf(groupsNotFullyShown);
    }

    public static Coverage wholeHost() {
        return new Coverage(false, false, Set.of());
    }

    public static Coverage listing(boolean partial, Set<Integer> groupsNotFullyShown) {
        return new Coverage(true, partial, groupsNotFullyShown);
    }

    public boolean groupFullyShown(int group) {
        return !groupsNotFullyShown.contains(group);
    }
}
