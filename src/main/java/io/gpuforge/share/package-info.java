/**
 * Pure logic of sharing a host GPU among guests: what the host says about its driver, Proxmox version and device
 * nodes ({@link ShareFacts}), the readiness checks with the container's {@code devN} entries
 * ({@link ShareChecks}), and the host plan that makes NVIDIA's nodes at boot ({@link SharePlanner}). Facts in,
 * values out; the apply, verify and rollback are passthrough's own ({@code host/HostConfigurator}).
 */
package io.gpuforge.share;
