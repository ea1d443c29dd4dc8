package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.NodeState;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.pci.PciInventory;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A libvirt host as the seam's inventory: one node (the host), its domains, and its GPUs, each with the VMs whose
 * configuration names it (the one that holds it first, as {@link GpuInfo#holdersFirst} orders them). Blocks on the
 * connection.
 */
final class LibvirtInventory {

    private LibvirtInventory() {
    }

    static ClusterInventory read(LibvirtConnection connection, String host) throws LibvirtBackendException {
        String versions = connection.versions();
        List<VmInfo> vms = connection.domains();
        PciInventory pci = connection.pciInventory();
        HostInfo hw = HostInfo.read(connection);
        NodeInfo node = new NodeInfo(host, NodeState.ONLINE, hw.cpus(), hw.memoryBytes(), OptionalDouble.empty(),
                hw.usedBytes(), OptionalLong.empty());
        List<GpuInfo> gpuList = new ArrayList<>();
        for (PciDevice d : pci.devices()) {
            if (d.isGpu()) {
                List<VmRef> owners = GpuInfo.holdersFirst(vms.stream().filter(v -> v.hostDevices()
                        .contains(d.address())).toList()).stream().map(VmInfo::ref).toList();
                String ids = d.vendorId() + ":" + d.deviceId();
                gpuList.add(new GpuInfo(host, d.address(), d.name().orElse(ids), Optional.of(ids), d.iommuGroup(),
                        Optional.empty(), owners.stream().findFirst(), true,
                        owners.isEmpty() ? List.of() : owners.subList(1, owners.size())));
            }
        }
        return new ClusterInventory(versions, host, List.of(node), vms, gpuList);
    }
}
