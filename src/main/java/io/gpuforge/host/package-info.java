/**
 * Hosts themselves: shells (local, SSH with OpenSSH's config and trust rules), the one-round-trip probe, the
 * listing parser, snapshots, and the journaled, detached apply and rollback.
 */
package io.gpuforge.host;
