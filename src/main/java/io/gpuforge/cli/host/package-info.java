/** Reading hosts and hypervisors: {@code iommu}, {@code inventory} and {@code snapshot}. */
package io.gpuforge.cli.host;
