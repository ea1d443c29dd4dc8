package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.pci.NodePci;
import io.gpuforge.domain.NodeState;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.share.ContainerSummary;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The seam's {@link ClusterInventory} from the four cluster-wide answers ({@code /version},
 * {@code /cluster/status}, {@code /cluster/resources}, {@code /cluster/mapping/pci}) plus what is known already
 * without asking: the PCI listings of nodes read before, and the passed-through devices of VM configurations read
 * before. Pure.
 *
 * <p>GPUs are every mapping entry (function 0 of the card it names), named from the node's PCI listing when that
 * was read, else from the mapping's description or ids; plus the GPUs of read node listings that no mapping names.
 * {@code assignedTo} is only known for VMs whose configuration was read (PVE's cluster listing does not carry
 * {@code hostpciN}): a GPU in a VM whose configuration was never read shows as unassigned.
 */
final class PveClusterInventory {

    private PveClusterInventory() {
    }

    static ClusterInventory of(JsonNode version, JsonNode status, JsonNode resources, PveMappings mappings,
                               Map<String, NodePci> pciRead, Map<VmRef, List<PciAddress>> devicesRead) {
        String cluster = "";
        for (JsonNode s : status) {
            if ("cluster".equals(PveValues.text(s, "type").orElse(""))) {
                cluster = PveValues.text(s, "name").orElse("");
            }
        }
        List<NodeInfo> nodes = new ArrayList<>();
        List<VmInfo> vms = new ArrayList<>();
        List<ContainerSummary> cts = new ArrayList<>();
        for (JsonNode r : resources) {
            String type = PveValues.text(r, "type").orElse("");
            if (type.equals("node")) {
                nodes.add(node(r));
            } else if (type.equals("qemu")) {
                vm(r).ifPresent(vms::add);
            } else if (type.equals("lxc")) {
                container(r).ifPresent(cts::add);
            }
        }
        String name = cluster.isEmpty() && nodes.size() == 1 ? nodes.get(0).name() : cluster;
        return new ClusterInventory("Proxmox VE " + PveValues.text(version, "version").orElse("?"), name, nodes, vms,
                gpus(mappings, pciRead, devicesRead, vms.stream().filter(v -> !v.template()).toList()), cts);
    }

    /** A container of the listing ({@code type: lxc}); a template container is left out, as it never runs. */
    private static Optional<ContainerSummary> container(JsonNode r) {
        OptionalLong vmid = PveValues.number(r, "vmid");
        Optional<String> node = PveValues.text(r, "node");
        if (vmid.isEmpty() || node.isEmpty() || PveValues.bool(r, "template").orElse(false)) {
            return Optional.empty();
        }
        return Optional.of(new ContainerSummary(node.get(), (int) vmid.getAsLong(), PveValues.text(r, "name")
                .orElse("CT " + vmid.getAsLong()), PveValues.text(r, "status").orElse("unknown"),
                (int) PveValues.number(r, "maxcpu").orElse(0), PveValues.number(r, "maxmem").orElse(0)));
    }

    private static NodeInfo node(JsonNode r) {
        String status = PveValues.text(r, "status").orElse("unknown");
        NodeState state = status.equals("online") ? NodeState.ONLINE : status.equals("offline") ? NodeState.OFFLINE
                : NodeState.UNKNOWN;
        JsonNode cpu = r.get("cpu");
        return new NodeInfo(PveValues.text(r, "node").orElse("?"), state, (int) PveValues.number(r, "maxcpu").orElse(0),
                PveValues.number(r, "maxmem").orElse(0), cpu != null && cpu.isNumber() ? OptionalDouble.of(cpu.asDouble())
                : OptionalDouble.empty(), PveValues.number(r, "mem"), PveValues.number(r, "uptime"));
    }

    private static Optional<VmInfo> vm(JsonNode r) {
        OptionalLong vmid = PveValues.number(r, "vmid");
        Optional<String> node = PveValues.text(r, "node");
        if (vmid.isEmpty() || node.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new VmInfo(new VmRef(node.get(), String.valueOf(vmid.getAsLong())),
                PveValues.text(r, "name").orElse("VM " + vmid.getAsLong()), state(PveValues.text(r, "status").orElse(""),
                PveValues.text(r, "lock").orElse("")), PveValues.bool(r, "template").orElse(false),
                (int) PveValues.number(r, "maxcpu").orElse(0), PveValues.number(r, "maxmem").orElse(0), Optional.empty()));
    }

    /** {@code running}, {@code stopped} (a hibernated VM is stopped with {@code lock: suspended}), {@code paused}… */
    static VmState state(String status, String lock) {
        switch (status) {
            case "running":
                return VmState.RUNNING;
            case "paused":
            case "prelaunch":
                return VmState.PAUSED;
            case "suspended":
                return VmState.SUSPENDED;
            case "stopped":
                return lock.equals("suspended") ? VmState.SUSPENDED : VmState.STOPPED;
            case "internal-error":
            case "io-error":
                return VmState.CRASHED;
            default:
                return VmState.UNKNOWN;
        }
    }

    private static List<GpuInfo> gpus(PveMappings mappings, Map<String, NodePci> pciRead,
                                      Map<VmRef, List<PciAddress>> devicesRead, List<VmInfo> vms) {
        Map<String, GpuInfo> byCard = new LinkedHashMap<>();
        for (PveMappings.Mapping m : mappings.all()) {
            for (PveMappings.Entry e : m.entries()) {
                Optional<PciAddress> a = e.address().map(PveClusterInventory::card);
                if (a.isEmpty() || byCard.containsKey(e.node() + "/" + a.get())) {
                    continue;
                }
                Optional<PciDevice> dev = device(pciRead, e.node(), a.get());
                String name = dev.flatMap(PciDevice::name).orElse(m.description().isEmpty() ? "PCI " + e.ids()
                        : m.description());
                OptionalInt group = e.iommuGroup().map(OptionalInt::of).orElse(dev.map(PciDevice::iommuGroup)
                        .orElse(OptionalInt.empty()));
                List<VmRef> in = assigned(devicesRead, vms, e.node(), a.get());
                byCard.put(e.node() + "/" + a.get(), new GpuInfo(e.node(), a.get(), name,
                        e.ids().isEmpty() ? Optional.empty() : Optional.of(e.ids()), group, Optional.of(m.id()),
                        in.stream().findFirst(), known(vms, devicesRead, e.node()) || !in.isEmpty(), rest(in)));
            }
        }
        pciRead.forEach((node, pci) -> {
            for (PciDevice d : pci.inventory().devices()) {
                PciAddress a = card(d.address());
                if (d.isGpu() && !byCard.containsKey(node + "/" + a)) {
                    List<VmRef> in = assigned(devicesRead, vms, node, a);
                    byCard.put(node + "/" + a, new GpuInfo(node, a, d.name().orElse("GPU"), Optional.of(
                            d.vendorId() + ":" + d.deviceId()), d.iommuGroup(), Optional.empty(),
                            in.stream().findFirst(), known(vms, devicesRead, node) || !in.isEmpty(), rest(in)));
                }
            }
        });
        return new ArrayList<>(byCard.values());
    }

    /** Whether every VM of the node had its configuration read, so a GPU none of them uses is known to be free. */
    private static boolean known(List<VmInfo> vms, Map<VmRef, List<PciAddress>> devicesRead, String node) {
        return vms.stream().filter(v -> v.ref().node().equals(node)).allMatch(v -> devicesRead.containsKey(v.ref()));
    }

    private static PciAddress card(PciAddress a) {
        return new PciAddress(a.domain(), a.bus(), a.slot(), 0);
    }

    private static Optional<PciDevice> device(Map<String, NodePci> pciRead, String node, PciAddress a) {
        NodePci pci = pciRead.get(node);
        return pci == null ? Optional.empty() : pci.inventory().device(a);
    }

    /** The VMs whose read configuration names the card, its holder first ({@link GpuInfo#holdersFirst}). */
    private static List<VmRef> assigned(Map<VmRef, List<PciAddress>> devicesRead, List<VmInfo> vms, String node,
                                        PciAddress card) {
        List<VmInfo> naming = vms.stream().filter(v -> v.ref().node().equals(node))
                .filter(v -> devicesRead.getOrDefault(v.ref(), List.of()).stream().anyMatch(card::sameSlot)).toList();
        return GpuInfo.holdersFirst(naming).stream().map(VmInfo::ref).toList();
    }

    private static List<VmRef> rest(List<VmRef> in) {
        return in.isEmpty() ? List.of() : in.subList(1, in.size());
    }
}
