package io.gpuforge.hypervisor.proxmox;

import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.ContainerInfo;
import io.gpuforge.domain.share.ContainerSpec;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.vm.FailedStart;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.domain.vm.GpuAttachRequest;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.vm.GuestExecResult;
import io.gpuforge.domain.vm.NetworkInfo;
import io.gpuforge.domain.telemetry.NodeHistory;
import io.gpuforge.domain.pci.NodePci;
import io.gpuforge.domain.NodeStatus;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.StorageInfo;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.hypervisor.BackendTask;
import io.gpuforge.hypervisor.Hypervisor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * A Proxmox VE cluster behind the seam, over {@link PveClient}. It offers everything a real PVE does except
 * replacing a whole configuration document (that is libvirt's XML). The inventory is the four cluster-wide
 * requests, never one per node ({@link PveClusterInventory} says what it knows without reading every VM);
 * configurations are read and written with PVE's {@code digest}; a GPU is attached through a PCI resource
 * mapping ({@link PveGpuAttach}); changes are polled ({@link PveChangeFeed}). Every method blocks on the network.
 */
public final class ProxmoxHypervisor implements Hypervisor {

    /**
     * @param taskPoll how often a task's status and log are asked while it runs
     * @param feedInterval how often the change feed polls the cluster
     * @param feedScheduler where the feed polls; empty: one daemon thread per subscription
     */
    public record Options(Duration taskPoll, Duration feedInterval, Optional<ScheduledExecutorService> feedScheduler) {
        public static Options defaults() {
            return new Options(Duration.ofMillis(500), Duration.ofSeconds(3), Optional.empty());
        }
    }

    /** What a Proxmox VE connection offers (known without connecting): all but a whole configuration document. */
    public static final Set<Capability> CAPABILITIES = Collections.unmodifiableSet(
            EnumSet.complementOf(EnumSet.of(Capability.VM_CONFIG_DOCUMENT)));
    private final PveClient client;
    private final PveApi api;
    private final PveVms vms;
    private final PveContainers containers;
    private final PveTasks tasks;
    private final PveSession session;
    private final PveProvisioning provisioning;
    private final PveGpuPassthrough passthrough;
    private final PveConfigs configs;
    private final Options options;
    private final String server;
    private final Map<String, NodePci> pciRead = new ConcurrentHashMap<>();
    private final Map<VmRef, List<PciAddress>> devicesRead = new ConcurrentHashMap<>();
    private final List<PveChangeFeed> feeds = new CopyOnWriteArrayList<>();

    public ProxmoxHypervisor(PveClient client, String server) {
        this(client, server, Options.defaults());
    }

    /** @param server what the user calls the cluster ({@code pve1.lab:8006}), for messages */
    public ProxmoxHypervisor(PveClient client, String server, Options options) {
        this.client = client;
        this.api = new PveApi(client);
        this.containers = new PveContainers(client);
        this.vms = new PveVms(client);
        this.tasks = new PveTasks(client, options.taskPoll());
        this.session = new PveSession(server);
        this.provisioning = new PveProvisioning(session, client, tasks);
        this.passthrough = new PveGpuPassthrough(session, client, api, this);
        this.configs = new PveConfigs(session, client, api, this::knownPci, devicesRead);
        this.options = options;
        this.server = server;
    }

    @Override
    public String kind() {
        return "Proxmox VE";
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public ConnectionState state() {
        return session.state();
    }

    /**
     * Nodes, VMs and GPUs in four requests. A GPU's {@code assignedTo} is known for the VMs whose configuration
     * this connection has read (readConfig, attach, detach), not for the others.
     */
    @Override
    public ClusterInventory inventory() throws BackendException {
        ClusterInventory inv = session.call(() -> PveClusterInventory.of(client.get("/version", Map.of()),
                client.get("/cluster/status", Map.of()), client.get("/cluster/resources", Map.of()),
                PveMappings.read(client), Map.copyOf(pciRead), Map.copyOf(devicesRead)));
        devicesRead.keySet().removeIf(vm -> inv.vm(vm).isEmpty());
        return inv;
    }

    @Override
    public NodePci nodePci(String node) throws BackendException {
        PvePci.NodePci read = session.call(() -> PvePci.read(client, node));
        NodePci pci = new NodePci(node, read.inventory(), read.iommu());
        pciRead.put(node, pci);
        return pci;
    }

    @Override
    public NodeStatus nodeStatus(String node) throws BackendException {
        PveApi.NodeStatus s = session.call(() -> api.nodeStatus(node));
        return new NodeStatus(node, Optional.of(s.pveVersion()).filter(v -> !v.isEmpty()),
                Optional.of(s.kernel()).filter(k -> !k.isEmpty()), OptionalLong.of(s.uptimeSeconds()), OptionalDouble.of(s.cpu()),
                s.cpus(), s.memTotal() > 0 ? OptionalLong.of(s.memTotal()) : OptionalLong.empty(),
                s.memTotal() > 0 ? OptionalLong.of(s.memUsed()) : OptionalLong.empty());
    }

    /** The node's RRD ({@code /nodes/{node}/rrddata}, averages), one request. */
    @Override
    public NodeHistory nodeHistory(String node, NodeHistory.Timeframe timeframe) throws BackendException {
        List<PveApi.NodeRrdPoint> rrd = session.call(() -> api.nodeRrd(node, timeframe.json(), false));
        List<NodeHistory.Point> points = new ArrayList<>(rrd.size());
        for (PveApi.NodeRrdPoint p : rrd) {
            points.add(new NodeHistory.Point(p.time(), p.cpu(), p.memUsed(), p.memTotal(), p.netIn(), p.netOut()));
        }
        points.sort((a, b) -> a.time().compareTo(b.time()));
        return new NodeHistory(node, timeframe, points);
    }

    @Override
    public BackendTask rebootNode(String node) throws BackendException {
        return task(session.call(() -> api.rebootNode(node)), Optional.empty());
    }

    @Override
    public BackendTask vmAction(VmRef vm, VmAction action) throws BackendException {
        int vmid = vmid(vm);
        PveVms.Action a = PveVms.Action.valueOf(action.name());
        return task(session.call(() -> vms.action(vm.node(), vmid, a)), Optional.empty());
    }

    @Override
    public BackendTask deleteVm(VmRef vm) throws BackendException {
        int vmid = vmid(vm);
        return task(session.call(() -> vms.delete(vm.node(), vmid, true)), Optional.empty());
    }

    @Override
    public VmConfig readConfig(VmRef vm) throws BackendException {
        return configs.read(vm);
    }

    @Override
    public VmConfig writeConfig(VmRef vm, ConfigChange change, String basedOnVersion) throws BackendException {
        return configs.write(vm, change, basedOnVersion);
    }

    @Override
    public GpuAttachResult attachGpu(GpuAttachRequest r) throws BackendException {
        return passthrough.attach(r);
    }

    @Override
    public GpuAttachResult previewGpuAttach(GpuAttachRequest r) throws BackendException {
        return passthrough.preview(r);
    }

    @Override
    public GpuAttachResult detachGpu(VmRef vm, PciAddress gpu, String basedOnVersion) throws BackendException {
        return passthrough.detach(vm, gpu, basedOnVersion);
    }

    @Override
    public BackendTask convertToTemplate(VmRef vm) throws BackendException {
        int vmid = vmid(vm);
        return task(session.call(() -> vms.template(vm.node(), vmid)), Optional.empty());
    }

    @Override
    public BackendTask cloneVm(CloneRequest r) throws BackendException {
        int vmid = vmid(r.source());
        PveVms.Clone c = session.call(() -> vms.clone(r.source().node(), vmid, r.name(), r.full(), r.targetNode(),
                r.storage()));
        return task(c.task(), Optional.of(new VmRef(r.targetNode().orElse(r.source().node()), String.valueOf(c.vmid()))));
    }

    /**
     * Creates a VM on {@code node}: see {@link PveVmSpec} for what of the spec PVE takes and {@link PveProvisioning}
     * for the steps (cloud image download, create, disk resize).
     */
    @Override
    public BackendTask createVm(String node, VmSpec spec) throws BackendException {
        return provisioning.create(node, spec);
    }

    @Override
    public List<StorageInfo> storages(String node) throws BackendException {
        return provisioning.storages(node);
    }

    @Override
    public List<NetworkInfo> networks(String node) throws BackendException {
        return provisioning.networks(node);
    }

    @Override
    public List<String> volumes(String node, String storage, String content) throws BackendException {
        return provisioning.volumes(node, storage, content);
    }

    @Override
    public GuestExecResult guestExec(VmRef vm, List<String> command, Duration timeout)
            throws BackendException, InterruptedException {
        return new PveGuestAgent(session, api).exec(vm, vmid(vm), command, timeout);
    }

    @Override
    public void guestFileWrite(VmRef vm, String file, byte[] content) throws BackendException {
        new PveGuestAgent(session, api).write(vm, vmid(vm), file, content);
    }

    @Override
    public void regenerateCloudInit(VmRef vm) throws BackendException {
        int vmid = vmid(vm);
        session.call(() -> client.put("/nodes/" + vm.node() + "/qemu/" + vmid + "/cloudinit", Map.of()));
    }

    @Override
    public Subscription watch(Consumer<ChangeEvent> listener) throws BackendException {
        if (session.closed()) {
            throw new BackendException(BackendException.Kind.FAILED, "The connection to " + server + " was closed");
        }
        PveChangeFeed feed = new PveChangeFeed(session, client, listener, options.feedInterval(),
                options.feedScheduler(), server);
        feeds.add(feed);
        return () -> {
            feeds.remove(feed);
            feed.close();
        };
    }

    /** Stops every change feed and refuses later calls; requests in flight end on their own (never waited for). */
    @Override
    public void close() {
        session.close();
        feeds.forEach(PveChangeFeed::close);
        feeds.clear();
    }

    @Override
    public List<ContainerInfo> containers(String node) throws BackendException {
        return session.call(() -> containers.list(node));
    }

    @Override
    public ContainerInfo container(String node, int vmid) throws BackendException {
        return session.call(() -> containers.config(node, vmid));
    }

    @Override
    public BackendTask createContainer(String node, ContainerSpec spec) throws BackendException {
        return task(session.call(() -> containers.create(node, spec)), Optional.empty());
    }

    @Override
    public ContainerInfo setContainerDevices(String node, int vmid, Map<Integer, Optional<ContainerDevice>> changes,
                                             String digest) throws BackendException {
        session.call(() -> {
            containers.devices(node, vmid, changes, digest);
            return null;
        });
        return container(node, vmid);
    }

    @Override
    public BackendTask containerAction(String node, int vmid, VmAction action) throws BackendException {
        return task(session.call(() -> containers.action(node, vmid, action)), Optional.empty());
    }

    /** The node's PCI listing as read before, else read now; null when the node cannot tell (slots stay function 0). */
    private NodePci knownPci(String node) {
        NodePci known = pciRead.get(node);
        if (known != null) {
            return known;
        }
        try {
            return nodePci(node);
        } catch (BackendException e) {
            return null;
        }
    }

    @Override
    public BackendTask deleteContainer(String node, int vmid) throws BackendException {
        return task(session.call(() -> containers.delete(node, vmid)), Optional.empty());
    }

    private BackendTask task(Upid upid, Optional<VmRef> creates) {
        return new PveBackendTask(session, tasks, upid, creates);
    }

    @Override
    public Optional<FailedStart> lastFailedStart(VmRef vm, int maxLines) throws BackendException {
        int id = vmid(vm);
        List<PveApi.ClusterTask> tasks = session.call(() -> api.nodeTasks(vm.node(), id, "qmstart", true, 5));
        Optional<PveApi.ClusterTask> failed = tasks.stream().filter(t -> t.type().equals("qmstart")
                && t.id().equals(vm.id()) && t.node().equals(vm.node()) && t.status().isPresent()
                && !t.status().get().equals("OK")).findFirst();
        if (failed.isEmpty()) {
            return Optional.empty();
        }
        PveApi.ClusterTask t = failed.get();
        List<String> log = session.call(() -> api.taskLog(Upid.parse(t.upid()), maxLines));
        return Optional.of(new FailedStart(t.upid(), t.started(), t.status().get(), String.join("\n", log)));
    }

    static int vmid(VmRef vm) throws BackendException {
        try {
            int id = Integer.parseInt(vm.id());
            if (id >= 100 && id <= 999_999_999) {
                return id;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new BackendException(BackendException.Kind.NOT_FOUND, "'" + vm.id() + "' is not a Proxmox VE VM id (a"
                + " number from 100)");
    }

    static void requireVersion(String version) throws BackendException {
        if (version == null || version.isBlank()) {
            throw new BackendException(BackendException.Kind.INVALID, "A change must name the configuration version"
                    + " (digest) it is based on: read the configuration first");
        }
    }
}
