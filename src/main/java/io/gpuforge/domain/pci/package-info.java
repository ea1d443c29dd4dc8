/** Values of PCI and IOMMU: addresses, devices, groups, isolation, GPU placement and a node's PCI inventory. */
package io.gpuforge.domain.pci;
