/**
 * Values of VMs: references, states, configurations and details, specs and templates, cloud-init, disks, NICs and
 * GPU attachment.
 */
package io.gpuforge.domain.vm;
