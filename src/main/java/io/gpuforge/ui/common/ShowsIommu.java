package io.gpuforge.ui.common;

/** A page with an IOMMU groups tab, which a GPU item of the tree brings to the front. */
public interface ShowsIommu {

    void showIommu();
}
