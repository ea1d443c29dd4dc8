package io.gpuforge.domain;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;

/**
 * Everything a connection holds, read in one go: what answers ({@code Proxmox VE 8.4.1},
 * {@code libvirt 9.0.0, QEMU 7.2.0}), the cluster or host name, nodes, VMs (templates included) and GPUs.
 */
public record ClusterInventory(String backendVersion, String name, List<NodeInfo> nodes, List<VmInfo> vms,
                               List<GpuInfo> gpus) {

    public ClusterInventory {
        Objects.requireNonNull(backendVersion);
        Objects.requireNonNull(name);
        nodes = List.copyOf(nodes);
        vms = List.copyOf(vms);
        gpus = List.copyOf(gpus);
    }

    public Optional<VmInfo> vm(VmRef ref) {
        return vms.stream().filter(v -> v.ref().equals(ref)).findFirst();
    }

    public List<VmInfo> vmsOn(String node) {
        return vms.stream().filter(v -> v.ref().node().equals(node)).toList();
    }

    public List<GpuInfo> gpusOn(String node) {
        return gpus.stream().filter(g -> g.node().equals(node)).toList();
    }

    public List<VmInfo> templates() {
        return vms.stream().filter(VmInfo::template).toList();
    }
}
