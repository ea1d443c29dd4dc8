package io.gpuforge.domain.share;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One GPU of a node and the containers that share it; {@code gpu} empty for device nodes no GPU of the node's facts
 * could be matched to (the node's host not linked, or a node GPUForge could not tell).
 */
public record GpuShare(String node, Optional<String> gpu, Optional<String> name, Optional<String> driver,
                       List<ContainerUse> containers) {

    public GpuShare {
        Objects.requireNonNull(node);
        containers = List.copyOf(containers);
    }
}
