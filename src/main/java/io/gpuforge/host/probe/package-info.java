/**
 * The probe: one round trip to a host through any shell, and the readers of what it answers (PCI functions and
 * their sysfs links, IOMMU groups, modules and modprobe files, the boot setup, the kernel log, the topology), put
 * together as the host's facts and its summary.
 */
package io.gpuforge.host.probe;
