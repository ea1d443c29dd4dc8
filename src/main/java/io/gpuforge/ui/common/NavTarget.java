package io.gpuforge.ui.common;

import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.share.ContainerSummary;
import io.gpuforge.domain.share.GpuShare;
import io.gpuforge.domain.vm.VmInfo;
import java.util.Objects;
import java.util.Optional;

/**
 * What a tree item below a hypervisor connection stands for: a node, a VM on it (as the inventory lists it: state,
 * name, size), a container on it, or a GPU on it (where it is assigned, and which containers share it when that was
 * read). A VM's, container's or GPU's item carries the value itself, so a change in the inventory is a change of the
 * item's value and its cell is drawn again.
 */
public record NavTarget(String node, Optional<VmInfo> vm, Optional<GpuInfo> gpu, Optional<ContainerSummary> container,
                        Optional<GpuShare> share) {

    public NavTarget {
        Objects.requireNonNull(node);
        Objects.requireNonNull(vm);
        Objects.requireNonNull(gpu);
        Objects.requireNonNull(container);
        Objects.requireNonNull(share);
    }

    public static NavTarget node(String node) {
        return new NavTarget(node, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    public static NavTarget vm(VmInfo vm) {
        return new NavTarget(vm.ref().node(), Optional.of(vm), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** A GPU, with what its node's host says of it (driver, containers) when that was read. */
    public static NavTarget gpu(GpuInfo gpu, Optional<GpuShare> share) {
        return new NavTarget(gpu.node(), Optional.empty(), Optional.of(gpu), Optional.empty(), share);
    }

    public static NavTarget gpu(GpuInfo gpu) {
        return gpu(gpu, Optional.empty());
    }

    /** A container, with the GPU it shares when that was read. */
    public static NavTarget container(ContainerSummary ct, Optional<GpuShare> share) {
        return new NavTarget(ct.node(), Optional.empty(), Optional.empty(), Optional.of(ct), share);
    }
}
