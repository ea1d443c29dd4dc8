/**
 * Listings a person pastes ({@code lspci -nnk}, the IOMMU groups loop, both mixed with prompts and prose), read as
 * generally as forum posts need: cut lines, noise and all.
 */
package io.gpuforge.host.listing;
