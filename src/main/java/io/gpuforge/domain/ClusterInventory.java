package io.gpuforge.domain;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.share.ContainerSummary;

/**
 * Everything a connection holds, read in one go: what answers ({@code Proxmox VE 8.4.1},
 * {@code libvirt 9.0.0, QEMU 7.2.0}), the cluster or host name, nodes, VMs (templates included), GPUs and the
 * containers of a backend that has them (Proxmox LXC).
 */
public record ClusterInventory(String backendVersion, String name, List<NodeInfo> nodes, List<VmInfo> vms,
                               List<GpuInfo> gpus, List<ContainerSummary> containers) {

    public ClusterInventory {
        Objects.requireNonNull(backendVersion);
        Objects.requireNonNull(name);
        nodes = List.copyOf(nodes);
        vms = List.copyOf(vms);
        gpus = List.copyOf(gpus);
        containers = List.copyOf(containers);
    }

    /** An inventory without containers (a backend that has none). */
    public ClusterInventory(String backendVersion, String name, List<NodeInfo> nodes, List<VmInfo> vms,
                            List<GpuInfo> gpus) {
        this(backendVersion, name, nodes, vms, gpus, List.of());
    }

    public List<ContainerSummary> containersOn(String node) {
        return containers.stream().filter(c -> c.node().equals(node)).toList();
    }

    public Optional<ContainerSummary> container(String node, int vmid) {
        return containers.stream().filter(c -> c.node().equals(node) && c.vmid() == vmid).findFirst();
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
