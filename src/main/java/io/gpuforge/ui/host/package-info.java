/** A host's page: its facts, IOMMU groups and the host-level actions. */
package io.gpuforge.ui.host;
