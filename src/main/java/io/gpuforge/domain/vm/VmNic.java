package io.gpuforge.domain.vm;

import java.util.Objects;

/** One network interface of a VM: slot ({@code net0}), model ({@code virtio}), MAC, and what it is plugged into. */
public record VmNic(String slot, String model, String mac, String network) {

    public VmNic {
        Objects.requireNonNull(slot);
        Objects.requireNonNull(model);
        Objects.requireNonNull(mac);
        Objects.requireNonNull(network);
    }
}
