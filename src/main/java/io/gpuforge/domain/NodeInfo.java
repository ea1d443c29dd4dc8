package io.gpuforge.domain;

import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A node of a connection: a Proxmox VE cluster member, or the one host behind a libvirt URI.
 *
 * @param cpuUsage 0..1 of all CPUs, when the backend reports it
 */
public record NodeInfo(String name, NodeState state, int cpus, long memoryBytes, OptionalDouble cpuUsage,
                       OptionalLong memoryUsedBytes, OptionalLong uptimeSeconds) {

    public NodeInfo {
        Objects.requireNonNull(name);
        Objects.requireNonNull(state);
        Objects.requireNonNull(cpuUsage);
        Objects.requireNonNull(memoryUsedBytes);
        Objects.requireNonNull(uptimeSeconds);
    }
}
