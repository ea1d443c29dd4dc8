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
                                  List<GpuInfo> gpus) {
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
        for (GpuInfo x : gpus) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("node", x.node());
            m.put("address", x.address().toString());
            m.put("path", x.address().slotAddress());
            m.put("name", x.name());
            m.put("ids", x.ids().orElse(null));
            m.put("iommu_group", x.iommuGroup().isPresent() ? x.iommuGroup().getAsInt() : null);
            m.put("mapping", x.mapping().orElse(null));
            m.put("assigned_to", x.assignedTo().map(r -> r.id()).orElse(null));
            m.put("assignment_known", x.assignmentKnown());
            g.add(m);
        }
        root.put("gpus", g);
        return root;
    }
}
