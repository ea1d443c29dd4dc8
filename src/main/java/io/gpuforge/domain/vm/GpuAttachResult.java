package io.gpuforge.domain.vm;

import java.util.List;

/**
 * What an attach or detach changed, line by line as the user should see it ({@code hostpci0: mapping=gpu-01-00,pcie=1},
 * {@code machine: q35}, {@code <hostdev … 0000:01:00.0>}), and the configuration afterwards.
 */
public record GpuAttachResult(List<String> changes, VmConfig after) {

    public GpuAttachResult {
        changes = List.copyOf(changes);
    }
}
