/**
 * The libvirt backend: libvirt-java on its own event-loop thread, domain XML, host devices, GPU attach, cloud-init
 * seeds and the guest agent.
 */
package io.gpuforge.hypervisor.libvirt;
