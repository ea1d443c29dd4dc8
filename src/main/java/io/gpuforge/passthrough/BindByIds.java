package io.gpuforge.passthrough;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciDevice;
import java.util.List;
import java.util.Optional;

/** {@code options vfio-pci ids=…}: vfio-pci claims every function with these ids. */
final class BindByIds implements VfioBinding {

    @Override
    public PlanPart bind(HostFacts f, List<PciDevice> functions, boolean blacklistDrivers) {
        return VfioModprobeFile.plan(f, functions, Optional.of(VfioBinding.ids(functions)), blacklistDrivers);
    }
}
