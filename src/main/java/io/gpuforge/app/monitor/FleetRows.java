package io.gpuforge.app.monitor;

import io.gpuforge.telemetry.GpuMetricsCollector;

import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.pci.GpuPlacement;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.GpuTarget;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.pci.PciInventory;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmState;
import io.gpuforge.domain.NodeState;
import io.gpuforge.domain.share.ContainerUse;
import io.gpuforge.domain.share.NodeShares;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The fleet's rows: every GPU a hypervisor connection's nodes report (their PCI devices), with the VM it is assigned
 * to; and the matching of readings to those rows (the Demo lab's by node and address, a guest agent's by its VM).
 */
final class FleetRows {

    /** VM configurations read at most per connection to tell which VM has a GPU. */
    static final int MAX_CONFIG_READS = 200;

    private FleetRows() {
    }

    /**
     * Which VM has which GPU: Proxmox lists configurations one VM at a time, so the VMs on nodes with GPUs are read
     * (bounded: a lab, not a farm); a VM whose configuration cannot be read stays unknown.
     */
    private static ClusterInventory withConfigs(ConnectionSession s, ClusterInventory inv, Map<String, PciInventory> pcis) {
        List<VmInfo> vms = new ArrayList<>();
        int reads = 0;
        for (VmInfo v : inv.vms()) {
            PciInventory pci = pcis.get(v.ref().node());
            VmInfo known = v;
            if (v.details().isEmpty() && !v.template() && pci != null && !pci.gpus().isEmpty()
                    && reads++ < MAX_CONFIG_READS) {
                try {
                    known = v.withDetails(s.readConfig(v.ref()).details());
                } catch (BackendException e) {
                    // left unknown: the row says so
                }
            }
            vms.add(known);
        }
        return new ClusterInventory(inv.backendVersion(), inv.name(), inv.nodes(), vms, inv.gpus());
    }

    /**
     * Every GPU of a connection; blocking (one inventory, one PCI read per node, and per node what its host says of
     * its GPUs' drivers and containers through {@code shares}).
     */
    static List<FleetGpu> of(ConnectionInfo c, ConnectionSession s, BiFunction<ConnectionSession, String, NodeShares> shares)
            throws BackendException {
        ClusterInventory listed = s.inventory();
        Map<String, PciInventory> pcis = new LinkedHashMap<>();
        for (NodeInfo n : listed.nodes()) {
            pcis.put(n.name(), s.nodePci(n.name()).inventory());
        }
        ClusterInventory inv = withConfigs(s, listed, pcis);
        List<FleetGpu> out = new ArrayList<>();
        for (NodeInfo n : inv.nodes()) {
            PciInventory pci = pcis.get(n.name());
            Optional<NodeShares> onNode = pci.gpus().isEmpty() || n.state() != NodeState.ONLINE ? Optional.empty()
                    : Optional.of(shares.apply(s, n.name()));
            for (GpuPlacement g : pci.gpus()) {
                List<ContainerUse> cts = onNode.map(x -> x.containers(g.address())).orElse(List.of());
                Optional<PciDevice> dev = pci.device(g.address());
                Optional<GpuInfo> info = inv.gpus().stream().filter(x -> x.node().equals(n.name())
                        && x.address().equals(g.address())).findFirst();
                List<VmInfo> naming = holders(inv, n.name(), g, info);
                Optional<VmRef> ref = naming.stream().findFirst().map(VmInfo::ref);
                Optional<VmInfo> vm = naming.stream().findFirst();
                FleetGpu.Availability a;
                if (vm.isPresent()) {
                    a = vm.get().state() == VmState.RUNNING ? FleetGpu.Availability.IN_USE
                            : FleetGpu.Availability.ASSIGNED;
                } else if (!cts.isEmpty()) {
                    a = FleetGpu.Availability.SHARED;
                } else if (info.map(GpuInfo::free).orElse(false) || inv.vmsOn(n.name()).isEmpty()
                        || inv.vmsOn(n.name()).stream().allMatch(v -> v.template() || v.details().isPresent())) {
                    a = FleetGpu.Availability.FREE;
                } else {
                    a = FleetGpu.Availability.UNKNOWN;
                }
                String model = PciDevice.modelName(dev.flatMap(PciDevice::name).orElse(info.map(GpuInfo::name).orElse("GPU")));
                out.add(new FleetGpu(new GpuId(c.nodeHost(n.name()), g.address().toString()),
                        c.name(), Optional.of(c), n.name(), Optional.of(g.address().toString()), model,
                        dev.flatMap(PciDevice::driver).or(() -> onNode.flatMap(x -> x.driver(g.address()))), ref,
                        vm.map(VmInfo::name), vm.map(VmInfo::state), a, Optional.of(new GpuTarget.Connection(c)), cts,
                        naming.stream().skip(1).map(v -> new FleetGpu.OtherVm(v.ref(), v.name())).toList()));
            }
        }
        return out;
    }

    /**
     * The VMs that name a GPU, its holder first ({@link GpuInfo#holdersFirst}): those the backend's listing says,
     * and those whose read configuration passes it through (a mapping, {@code hostpciN}, a {@code <hostdev>}).
     */
    private static List<VmInfo> holders(ClusterInventory inv, String node, GpuPlacement g, Optional<GpuInfo> info) {
        Map<VmRef, VmInfo> naming = new LinkedHashMap<>();
        info.map(GpuInfo::configuredIn).orElse(List.of()).forEach(r -> inv.vm(r).ifPresent(v -> naming.put(r, v)));
        for (VmInfo v : inv.vmsOn(node)) {
            if (!v.template() && v.hostDevices().stream().anyMatch(a -> a.sameSlot(g.address()))) {
                naming.putIfAbsent(v.ref(), v);
            }
        }
        return GpuInfo.holdersFirst(naming.values());
    }

    /** A row for readings that match no listed GPU (this computer's, an exporter's). */
    static FleetGpu fromSample(GpuSample s, String connection, Optional<ConnectionInfo> c, GpuTarget target) {
        String host = s.node().orElse(s.gpu().host());
        Optional<String> address = s.address().or(() -> s.gpu().device().matches(
                "(?i)[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]") ? Optional.of(s.gpu().device()) : Optional.empty());
        return new FleetGpu(s.gpu(), connection, c, host, address, s.name().isEmpty() ? "GPU" : s.name(),
                Optional.empty(), Optional.empty(), s.vm(), Optional.empty(),
                s.vm().isPresent() ? FleetGpu.Availability.IN_USE : FleetGpu.Availability.UNKNOWN, Optional.of(target));
    }

    /**
     * Which row of {@code rows} the readings of {@code s} belong to, among the rows of connection {@code c} not yet
     * bound to readings: the same node and PCI address, or the only GPU of the VM that a guest agent reads.
     */
    static int match(List<FleetGpu> rows, GpuSample s, ConnectionInfo c) {
        String vmHost = s.gpu().host();
        for (int i = 0; i < rows.size(); i++) {
            FleetGpu r = rows.get(i);
            if (r.connectionInfo().map(x -> x.id() != c.id()).orElse(true)) {
                continue;
            }
            boolean sameNode = s.node().map(r.host()::equals).orElse(false);
            String address = s.address().orElse(s.gpu().device());
            if (sameNode && r.address().map(a -> a.equalsIgnoreCase(address)).orElse(false)) {
                return i;
            }
            if (vmHost.startsWith("vm:") && r.vmRef().map(v -> vmHost.equals("vm:" + v.id() + "@" + v.node()))
                    .orElse(false) && r.id().host().startsWith(c.kind().db() + ":")) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The rows once a reading has arrived: unchanged ({@code now} itself) when a row already has its id and model;
     * else that row renamed to the model the reading names, or the row the reading matches given its id, or a new row
     * for a GPU the listing did not have.
     */
    static List<FleetGpu> bound(List<FleetGpu> now, GpuSample s, String connection, Optional<ConnectionInfo> c,
                                GpuTarget target) {
        for (int j = 0; j < now.size(); j++) {
            FleetGpu r = now.get(j);
            if (r.id().equals(s.gpu())) {
                if (s.name().isEmpty() || s.name().equals(r.model())) {
                    return now;
                }
                List<FleetGpu> renamed = new ArrayList<>(now);
                renamed.set(j, r.withModel(s.name()));
                return List.copyOf(renamed);
            }
        }
        List<FleetGpu> next = new ArrayList<>(now);
        int i = c.isPresent() ? match(now, s, c.get()) : -1;
        if (i >= 0) {
            FleetGpu r = now.get(i).withId(s.gpu());
            next.set(i, s.name().isEmpty() ? r : r.withModel(s.name()));
        } else {
            next.add(fromSample(s, connection, c, target));
        }
        return List.copyOf(next);
    }

    /**
     * Who holds a GPU as a label value, the same holder every command names: {@code vm:101}, {@code ct:201,ct:202},
     * {@code free} or {@code unknown}.
     */
    static String holder(FleetGpu g) {
        if (g.vmRef().isPresent()) {
            return "vm:" + g.vmRef().get().id();
        }
        if (!g.containers().isEmpty()) {
            return String.join(",", g.containers().stream().map(c -> "ct:" + c.vmid()).toList());
        }
        return g.availability() == FleetGpu.Availability.UNKNOWN ? "unknown" : "free";
    }

    /** What the Prometheus endpoint's {@code gpuforge_gpu_info} says of each GPU. */
    static Map<GpuId, GpuMetricsCollector.GpuLabels> labels(List<FleetGpu> rows) {
        Map<GpuId, GpuMetricsCollector.GpuLabels> out = new LinkedHashMap<>();
        for (FleetGpu g : rows) {
            out.put(g.id(), new GpuMetricsCollector.GpuLabels(g.model(), g.driver().orElse(""), g.host(),
                    g.vm().orElse(g.containers().isEmpty() ? "" : g.containers().stream().map(c -> "CT " + c.vmid())
                            .collect(java.util.stream.Collectors.joining(","))), g.connection(), holder(g)));
        }
        return out;
    }
}
