package io.gpuforge.domain;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What a node's summary page shows: versions, kernel, uptime, load and memory. Unknown values are empty.
 *
 * @param version {@code pve-manager/8.4.1/…} or {@code libvirt 9.0.0, QEMU 7.2.0}
 */
public record NodeStatus(String node, Optional<String> version, Optional<String> kernel, OptionalLong uptimeSeconds,
                         OptionalDouble cpuUsage, int cpus, OptionalLong memoryTotalBytes, OptionalLong memoryUsedBytes) {

    public NodeStatus {
        Objects.requireNonNull(node);
        Objects.requireNonNull(version);
        Objects.requireNonNull(kernel);
        Objects.requireNonNull(uptimeSeconds);
        Objects.requireNonNull(cpuUsage);
        Objects.requireNonNull(memoryTotalBytes);
        Objects.requireNonNull(memoryUsedBytes);
    }
}
