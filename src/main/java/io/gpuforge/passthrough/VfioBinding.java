package io.gpuforge.passthrough;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * How vfio-pci gets the planned functions at boot: by vendor:device ids, or, when an identical card stays with
 * the host (ids would take it too), by PCI address. Either way the host drivers get a softdep on vfio-pci and,
 * if the user asked, a blacklist entry.
 */
interface VfioBinding {

    /** The edits and notes that bind these functions to vfio-pci from the next boot on. */
    PlanPart bind(HostFacts f, List<PciDevice> functions, boolean blacklistDrivers);

    /** By address when a function elsewhere on the host has the same ids as one planned, else by ids. */
    static VfioBinding forFunctions(HostFacts f, List<PciDevice> functions) {
        Set<String> ids = ids(functions);
        Set<PciAddress> chosen = new TreeSet<>();
        functions.forEach(d -> chosen.add(d.address()));
        boolean identicalStays = f.pci().devices().stream().anyMatch(d -> !chosen.contains(d.address())
                && d.vendorId() != null && ids.contains(d.vendorId() + ":" + d.deviceId()));
        return identicalStays ? new BindByAddress() : new BindByIds();
    }

    /** The {@code vvvv:dddd} ids of the functions, sorted. */
    static Set<String> ids(List<PciDevice> functions) {
        Set<String> ids = new TreeSet<>();
        for (PciDevice d : functions) {
            if (d.vendorId() != null) {
                ids.add(d.vendorId() + ":" + d.deviceId());
            }
        }
        return ids;
    }
}
