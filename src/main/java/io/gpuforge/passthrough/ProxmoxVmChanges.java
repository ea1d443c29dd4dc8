package io.gpuforge.passthrough;

import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.pci.PciMappingIds;
import java.util.List;

/**
 * Proxmox VE: a cluster PCI resource mapping for the card (usable with API tokens, unlike raw {@code host=}), named
 * by {@link PciMappingIds} as the attach names it, and the VM's first free {@code hostpciN} on it in a q35 + OVMF
 * VM without ballooning.
 */
final class ProxmoxVmChanges implements VmChangeBuilder {

    @Override
    public List<PassthroughPlan.VmChange> changes(HostFacts f, PciDevice gpu, List<PciDevice> functions, String vmId) {
        String mapping = PciMappingIds.forCard(f.summary().hostname(), gpu.address());
        String iommuGroup = gpu.iommuGroup().stream().mapToObj(g -> ",iommugroup=" + g).findFirst().orElse("");
        return List.of(
                new PassthroughPlan.VmChange("proxmox", "PCI resource mapping (works with API tokens)",
                        "pvesh create /cluster/mapping/pci --id " + mapping + " --map node=" + f.summary().hostname()
                                + ",path=" + gpu.address().slotAddress() + ",id=" + gpu.vendorId() + ":" + gpu.deviceId()
                                + iommuGroup),
                new PassthroughPlan.VmChange("proxmox", "VM " + vmId + " configuration",
                        "hostpciN: mapping=" + mapping + ",pcie=1 (N: the VM's first free)\nmachine: q35\nbios: ovmf\nefidisk0: <storage>:1,"
                                + "efitype=4m,pre-enrolled-keys=0\nballoon: 0"));
    }
}
