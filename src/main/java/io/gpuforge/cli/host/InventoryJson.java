package io.gpuforge.cli.host;

import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.vm.VmDetails;
import io.gpuforge.domain.vm.VmInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code gpuforge inventory --json} of a hypervisor: the same document for Proxmox VE and libvirt
 * ({@code source, version, cluster, nodes, vms, gpus}); values the backend does not know are null.
 */
final class InventoryJson {

    private InventoryJson() {
    }

    static Map<String, Object> of(String source, ClusterInventory inv, List<NodeInfo> nodes, List<VmInfo> vms,
                                  List<io.gpuforge.domain.telemetry.FleetGpu> gpus) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("source", source);
        root.put("version", inv.backendVersion());
        root.put("cluster", inv.name());
        List<Object> n = new ArrayList<>();
        for (NodeInfo x : nodes) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", x.name());
            m.put("state", x.state().json());
            m.put("cpus", x.cpus());
            m.put("memory_bytes", x.memoryBytes());
            n.add(m);
        }
        root.put("nodes", n);
        List<Object> v = new ArrayList<>();
        for (VmInfo x : vms) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", x.ref().id());
            m.put("node", x.ref().node());
            m.put("name", x.name());
            m.put("state", x.state().json());
            m.put("template", x.template());
            m.put("vcpus", x.vcpus());
            m.put("memory_bytes", x.memoryBytes());
            VmDetails d = x.details().orElse(null);
            m.put("machine", d == null ? null : d.machine().orElse(null));
            m.put("firmware", d == null ? null : d.firmware().json());
            m.put("host_devices", x.hostDevices().stream().map(Object::toString).toList());
            m.put("disks", d == null ? null : d.disks().stream().map(k -> (k.slot() + " " + k.source()).strip()).toList());
            m.put("nics", d == null ? null : d.nics().stream().map(k -> (k.model() + " " + k.mac() + " " + k.network())
                    .strip()).toList());
            v.add(m);
        }
        root.put("vms", v);
        List<Object> g = new ArrayList<>();
        for (io.gpuforge.domain.telemetry.FleetGpu x : gpus) {
            java.util.Optional<GpuInfo> listed = InventoryCommand.mapped(inv, x);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("node", x.host());
            m.put("address", x.address().orElse(null));
            m.put("path", x.address().map(a -> io.gpuforge.domain.pci.PciAddress.parse(a).slotAddress()).orElse(null));
            m.put("name", x.model());
            m.put("ids", listed.flatMap(GpuInfo::ids).orElse(null));
            m.put("iommu_group", listed.flatMap(i -> i.iommuGroup().isPresent() ? java.util.Optional.of(
                    i.iommuGroup().getAsInt()) : java.util.Optional.empty()).orElse(null));
            m.put("mapping", listed.flatMap(GpuInfo::mapping).orElse(null));
            // no source said: "unknown", never a bare null
            m.put("driver", x.driver().orElse("unknown"));
            m.put("holder", io.gpuforge.cli.common.GpuHolder.json(x));
            m.put("assigned_to", x.vmRef().map(r -> r.id()).orElse(null));
            m.put("assignment_known", x.availability() != io.gpuforge.domain.telemetry.FleetGpu.Availability.UNKNOWN);
            g.add(m);
        }
        root.put("gpus", g);
        return root;
    }
}
