/**
 * Hosts themselves, the root: the shells (a local one, {@link io.gpuforge.host.HostShell} for any), the remote files
 * a plan reads and stages through a shell, the probe's answer stream, and the I/O errors every part of a host raises.
 * Beneath it, by concern: {@code ssh} (OpenSSH's config and trust rules, jumps, keys, agents), {@code probe} (the
 * one-round-trip probe and its readers), {@code listing} (pasted lspci and IOMMU listings), {@code snapshot} (a
 * host's state, archived) and {@code apply} (the journaled, detached apply and rollback). They use the root, never
 * each other, but for a snapshot, which takes a probe.
 */
package io.gpuforge.host;
