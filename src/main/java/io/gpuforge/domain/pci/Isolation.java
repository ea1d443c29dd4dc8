package io.gpuforge.domain.pci;

import java.util.Locale;

/** How alone a GPU is in its IOMMU group. */
public enum Isolation {
    /** The group holds only the GPU's own functions. */
    ISOLATED,
    /** Besides the GPU's functions only host bridges and PCI bridges/ports, which vfio need not own. */
    SHARES_WITH_BRIDGES,
    /** Another endpoint is in the group: it would have to go to the VM too. */
    SHARED;

    public String json() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
