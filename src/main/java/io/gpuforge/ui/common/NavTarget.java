package io.gpuforge.ui.common;

import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.vm.VmInfo;
import java.util.Objects;
import java.util.Optional;

/**
 * What a tree item below a hypervisor connection stands for: a node, a VM on it (as the inventory lists it: state,
 * name, size), or a GPU on it (where it is assigned). A VM's or GPU's item carries the value itself, so a change in
 * the inventory is a change of the item's value and its cell is drawn again.
 */
public record NavTarget(String node, Optional<VmInfo> vm, Optional<GpuInfo> gpu) {

    public NavTarget {
        Objects.requireNonNull(node);
        Objects.requireNonNull(vm);
        Objects.requireNonNull(gpu);
    }

    public static NavTarget node(String node) {
        return new NavTarget(node, Optional.empty(), Optional.empty());
    }

    public static NavTarget vm(VmInfo vm) {
        return new NavTarget(vm.ref().node(), Optional.of(vm), Optional.empty());
    }

    public static NavTarget gpu(GpuInfo gpu) {
        return new NavTarget(gpu.node(), Optional.empty(), Optional.of(gpu));
    }
}
