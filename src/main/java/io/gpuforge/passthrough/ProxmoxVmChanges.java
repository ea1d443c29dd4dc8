package io.gpuforge.passthrough;

import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import java.util.List;
import java.util.Locale;

/**
 * Proxmox VE: a cluster PCI resource mapping for the card (usable with API tokens, unlike raw {@code host=}),
 * and {@code hostpci0} on it in a q35 + OVMF VM without ballooning.
 */
final class ProxmoxVmChanges implements VmChangeBuilder {

    @Override
    public List<PassthroughPlan.VmChange> changes(HostFacts f, PciDevice gpu, List<PciDevice> functions, String vmId) {
        String mapping = mappingId(gpu.address());
        String iommuGroup = gpu.iommuGroup().stream().mapToObj(g -> ",iommugroup=" + g).findFirst().orElse("");
        return List.of(
                new PassthroughPlan.VmChange("proxmox", "PCI resource mapping (works with API tokens)",
                        "pvesh create /cluster/mapping/pci --id " + mapping + " --map node=" + f.summary().hostname()
                                + ",path=" + gpu.address().slotAddress() + ",id=" + gpu.vendorId() + ":" + gpu.deviceId()
                                + iommuGroup),
                new PassthroughPlan.VmChange("proxmox", "VM " + vmId + " configuration",
                        "hostpci0: mapping=" + mapping + ",pcie=1\nmachine: q35\nbios: ovmf\nefidisk0: <storage>:1,"
                                + "efitype=4m,pre-enrolled-keys=0\nballoon: 0"));
    }

    /** The mapping's id for a card: {@code gpu-<bus>-<slot>}, e.g. {@code gpu-81-00}. */
    static String mappingId(PciAddress a) {
        return String.format(Locale.ROOT, "gpu-%02x-%02x", a.bus(), a.slot());
    }
}
