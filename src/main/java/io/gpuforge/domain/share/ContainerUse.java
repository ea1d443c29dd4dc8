package io.gpuforge.domain.share;

import java.util.List;
import java.util.Objects;

/**
 * What one container holds of a GPU: the host device nodes, and whether it got them the old way (raw
 * {@code lxc.cgroup2.devices.allow} and {@code lxc.mount.entry} lines, whose device majors change between kernels)
 * rather than by {@code devN}.
 */
public record ContainerUse(int vmid, String name, String status, List<String> nodes, boolean legacy) {

    public ContainerUse {
        Objects.requireNonNull(name);
        Objects.requireNonNull(status);
        nodes = List.copyOf(nodes);
    }
}
