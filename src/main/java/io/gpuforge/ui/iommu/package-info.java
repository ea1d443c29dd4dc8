/** The IOMMU groups view, shown by the node, host and passthrough pages. */
package io.gpuforge.ui.iommu;
