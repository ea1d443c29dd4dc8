package io.gpuforge.passthrough;

import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.vm.LibvirtHostdev;
import io.gpuforge.domain.pci.PciDevice;
import java.util.List;

/** libvirt: a managed {@code <hostdev>} for every planned function, in a q35 domain with OVMF. */
final class LibvirtVmChanges implements VmChangeBuilder {

    @Override
    public List<PassthroughPlan.VmChange> changes(HostFacts f, PciDevice gpu, List<PciDevice> functions, String vmId) {
        StringBuilder xml = new StringBuilder();
        for (PciDevice d : functions) {
            xml.append(LibvirtHostdev.of(d.address()).xml(""));
        }
        return List.of(new PassthroughPlan.VmChange("libvirt", "host devices of domain " + vmId
                + " (q35 machine, OVMF firmware)", xml.toString().strip()));
    }
}
