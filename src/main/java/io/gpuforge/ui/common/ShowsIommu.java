package io.gpuforge.ui.common;

/** A page with an IOMMU groups tab, which a GPU item of the tree brings to the front. */
public interface ShowsIommu {

    void showIommu();

    /** The IOMMU view with a device selected (a GPU of the tree was opened); the view alone where none can be. */
    default void showIommu(io.gpuforge.domain.pci.PciAddress device) {
        showIommu();
    }
}
