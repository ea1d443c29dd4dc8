package io.gpuforge.domain.pci;

import java.util.Locale;

/** Whether a host's IOMMU is active, as far as can be told from the facts gathered. */
public enum IommuState {
    ENABLED, DISABLED, UNKNOWN;

    /** The lower-case form used in JSON output. */
    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }
}
