package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.vm.VmSpec;
import java.util.List;
import java.util.Optional;

/** Small VM specs for the backend's tests: 1 vCPU, 256 MiB, user-mode network, UEFI, TCG. */
final class HypervisorSpecs {

    private HypervisorSpecs() {
    }

    static VmSpec spec(String name) {
        return new VmSpec(name, 1, 256, Optional.empty(), VmSpec.USER_NETWORK, Optional.empty(), List.of(), true, false);
    }
}
