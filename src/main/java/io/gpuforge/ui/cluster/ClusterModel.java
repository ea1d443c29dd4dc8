package io.gpuforge.ui.cluster;

import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.passthrough.GpuAssignments;
import io.gpuforge.app.share.ShareService;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.pci.NodePci;
import io.gpuforge.domain.NodeState;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.share.NodeShares;
import io.gpuforge.ui.common.BackgroundTasks;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Loadable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.value.ObservableValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the window keeps of one hypervisor connection while it is in the tree: its inventory, how the connection is
 * doing, the models of its nodes and VMs that pages opened, and the live change feed: each change makes what it
 * names read again (a burst of changes becomes one reload per model, after the read that runs). FX thread except
 * where noted.
 */
public final class ClusterModel {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterModel.class);

    private final ConnectionSession session;
    private final BackgroundTasks tasks;
    private final I18n i18n;
    private final Loadable<ClusterInventory> inventory;
    private final ObjectProperty<String> node = new SimpleObjectProperty<>();
    private final Loadable<HostFacts> pci;
    /** How each online node's GPUs are used by containers and which driver holds them, read after the inventory. */
    private final Loadable<Map<String, NodeShares>> shares;
    /** The inventory the next read of {@link #shares} is for (set on the FX thread, read by the read). */
    private volatile ClusterInventory sharesFor;
    /** What of the inventory the shares last read depend on: the online nodes and their containers' states. */
    private List<String> sharesKey = List.of();
    private final ReadOnlyObjectWrapper<ConnectionState> state;
    private final Map<String, NodeModel> nodes = new ConcurrentHashMap<>();
    private final Map<VmRef, VmModel> vms = new ConcurrentHashMap<>();
    private final List<Consumer<ChangeEvent>> eventListeners = new CopyOnWriteArrayList<>();
    /** Which VMs' configurations were read to learn who has a GPU (a refresh reads only the new and changed ones). */
    private final GpuAssignments assignments = new GpuAssignments();
    private final Consumer<ConnectionState> stateListener;
    private final ShareService shareService;
    private AutoCloseable watch;
    private boolean watching;
    private boolean devicesRead;
    private boolean assignmentsRead;

    ClusterModel(ConnectionSession session, ShareService shareService, BackgroundTasks tasks, I18n i18n) {
        this.session = session;
        this.shareService = shareService;
        this.tasks = tasks;
        this.i18n = i18n;
        String name = session.connection().name();
        inventory = new Loadable<>(tasks, session::inventory, i18n.get("task.clusterInventory", name));
        pci = new Loadable<>(tasks, () -> facts(session.nodePci(node.get())), i18n.get("task.nodePci", name));
        shares = new Loadable<>(tasks, () -> readShares(shareService), i18n.get("console.task.readShares", name));
        state = new ReadOnlyObjectWrapper<>(session.state());
        stateListener = s -> Platform.runLater(() -> state.set(s));
        session.addStateListener(stateListener);
        inventory.valueProperty().addListener((o, a, inv) -> {
            if (inv != null && (node.get() == null || inv.nodes().stream().noneMatch(n -> n.name().equals(node.get())))) {
                node.set(inv.nodes().isEmpty() ? null : inv.nodes().get(0).name());
            }
            if (inv != null && !devicesRead) {
                devicesRead = true;
                readDevices(inv);
            }
            if (inv != null) {
                List<String> key = sharesKey(inv);
                if (!key.equals(sharesKey)) {
                    sharesKey = key;
                    sharesFor = inv;
                    shares.changed();
                }
            }
            if (inv != null && !assignmentsRead && inv.gpus().stream().anyMatch(g -> !g.assignmentKnown())) {
                assignmentsRead = true;
                learnAssignments(inv);
            }
        });
        node.addListener((o, a, n) -> {
            if (n != null && pci.started()) {
                pci.refresh();
            }
        });
    }

    /**
     * Reads the PCI devices of every online node once, in one background task, then the inventory again: until a
     * node's devices were read, the inventory knows its GPUs only from resource mappings (no model name, and the
     * unmapped ones not at all). A node that cannot be read keeps what the mappings say.
     */
    private void readDevices(ClusterInventory inv) {
        List<String> online = inv.nodes().stream().filter(n -> n.state() == NodeState.ONLINE).map(NodeInfo::name)
                .collect(Collectors.toList());
        if (online.isEmpty()) {
            return;
        }
        tasks.supply(i18n.get("console.task.readDevices", session.connection().name()), () -> {
            int read = 0;
            for (String n : online) {
                try {
                    session.nodePci(n);
                    read++;
                } catch (BackendException e) {
                    LOG.debug("The PCI devices of {} could not be read: {}", n, e.getMessage());
                }
            }
            return read;
        }).onSuccess(read -> {
            if (read > 0) {
                inventory.changed();
            }
        }).start();
    }

    private Map<String, NodeShares> readShares(ShareService service) {
        ClusterInventory inv = sharesFor;
        Map<String, NodeShares> out = new HashMap<>();
        if (inv != null) {
            for (NodeInfo n : inv.nodes()) {
                if (n.state() == NodeState.ONLINE) {
                    out.put(n.name(), service.nodeShares(session, n.name()));
                }
            }
        }
        return Map.copyOf(out);
    }

    /** The online nodes and each container's node, id and state: when one of these changes, shares are read again. */
    private static List<String> sharesKey(ClusterInventory inv) {
        List<String> key = new java.util.ArrayList<>();
        inv.nodes().stream().filter(n -> n.state() == NodeState.ONLINE).forEach(n -> key.add(n.name()));
        inv.containers().forEach(c -> key.add(c.node() + "/" + c.vmid() + "/" + c.status()));
        return List.copyOf(key);
    }

    /**
     * Once per refresh, when the inventory cannot tell who has some GPU (one given through a PCI resource mapping
     * is named only in its VM's configuration), reads the VMs' configurations in the background and then the
     * inventory again, which then says "VM 101" for it.
     */
    private void learnAssignments(ClusterInventory inv) {
        tasks.supply(i18n.get("console.task.readAssignments", session.connection().name()),
                () -> assignments.learnAssignments(session, inv))
                .onSuccess(read -> {
                    if (read > 0) {
                        inventory.changed();
                    }
                }).start();
    }

    /** What a hypervisor's PCI listing tells, as facts for the IOMMU view (host files are not read). */
    HostFacts facts(NodePci p) {
        // the drivers in use from the node's host, as the fleet and gpuforge iommu have them (blocking: a task)
        return HostFacts.fromListing(session.connection().nodeHost(p.node()),
                shareService.withDrivers(session, p.node(), p.inventory())).withSource(p.node(),
                List.of(i18n.get("cluster.pci.unknowns")));
    }

    public ConnectionSession session() {
        return session;
    }

    public Loadable<ClusterInventory> inventory() {
        return inventory;
    }

    /** Connecting, connected, reconnecting, failed, closed: follows the session. */
    public ReadOnlyObjectProperty<ConnectionState> stateProperty() {
        return state.getReadOnlyProperty();
    }

    /** Per online node: its GPUs' drivers and the containers that share them (empty until read). */
    public Loadable<Map<String, NodeShares>> shares() {
        return shares;
    }

    /** What is known of a node's GPUs' use by containers, when it was read. */
    public Optional<NodeShares> shares(String node) {
        return Optional.ofNullable(shares.valueProperty().get()).map(m -> m.get(node));
    }

    /** A container's devices changed here (added a GPU, migrated): the shares are read again. */
    public void sharesChanged() {
        ClusterInventory inv = inventory.valueProperty().get();
        if (inv != null) {
            sharesFor = inv;
            shares.changed();
        }
    }

    Loadable<HostFacts> pci() {
        return pci;
    }

    ObjectProperty<String> node() {
        return node;
    }

    BackgroundTasks tasks() {
        return tasks;
    }

    I18n i18n() {
        return i18n;
    }

    /** The model of a node's page (made on first use, kept while the connection is). */
    NodeModel nodeModel(String name) {
        return nodes.computeIfAbsent(name, n -> new NodeModel(this, n));
    }

    /** The model of a VM's page (made on first use, kept while the connection is). */
    VmModel vmModel(VmRef ref) {
        return vms.computeIfAbsent(ref, r -> new VmModel(this, r));
    }

    /** Hears every change on the FX thread after the models did (the tree, the events panel). */
    public void addEventListener(Consumer<ChangeEvent> l) {
        eventListeners.add(l);
    }

    public void removeEventListener(Consumer<ChangeEvent> l) {
        eventListeners.remove(l);
    }

    /** Reads the inventory if not yet read and starts the change feed once. */
    public void start(Consumer<Throwable> onWatchFailure) {
        inventory.loadOnce();
        if (watching) {
            return;
        }
        watching = true;
        tasks.supply(i18n.get("task.watchConnection", session.connection().name()), () -> session.watch(e ->
                Platform.runLater(() -> changed(e))))
                .onSuccess(w -> watch = w)
                .onError(onWatchFailure::accept)
                .start();
    }

    private void changed(ChangeEvent e) {
        assignments.changed(e);
        if (e.kind() != ChangeEvent.Kind.CONNECTION) {
            inventory.changed();
        }
        nodes.values().forEach(n -> n.changed(e));
        vms.values().forEach(v -> v.changed(e));
        eventListeners.forEach(l -> l.accept(e));
    }

    /** F5: what was read is read again, the inventory and every page's data. */
    public void refresh() {
        assignmentsRead = false;
        if (inventory.started()) {
            inventory.refresh();
        }
        if (pci.started()) {
            pci.refresh();
        }
        if (shares.started()) {
            shares.refresh();
        }
        nodes.values().forEach(NodeModel::refresh);
        vms.values().forEach(VmModel::refresh);
    }

    /**
     * For the IOMMU view of a node: which VM each of its GPUs is assigned to, as the inventory says ("VM 101"), or
     * which containers share it, following the inventory, the shares and the node shown.
     */
    ObservableValue<Map<PciAddress, String>> assignments(ObservableValue<String> shown) {
        return Bindings.createObjectBinding(() -> {
            ClusterInventory inv = inventory.valueProperty().get();
            String n = shown.getValue();
            Map<PciAddress, String> out = new HashMap<>();
            if (inv != null && n != null) {
                Optional<NodeShares> s = shares(n);
                for (GpuInfo g : inv.gpusOn(n)) {
                    var share = s.flatMap(x -> x.of(g.address()));
                    if (g.assignedTo().isPresent() || !ShareFormat.containers(share).isEmpty()) {
                        out.put(g.address(), ShareFormat.use(g, share, i18n));
                    }
                }
            }
            return Map.copyOf(out);
        }, inventory.valueProperty(), shares.valueProperty(), shown);
    }

    public Optional<ClusterInventory> current() {
        return Optional.ofNullable(inventory.valueProperty().get());
    }

    /** Stops the feed; never waits on the network (the session closes it in the background). */
    void dispose() {
        session.removeStateListener(stateListener);
        eventListeners.clear();
        if (watch != null) {
            try {
                watch.close();
            } catch (Exception e) {
                // the session closes in the background and does not throw
            }
            watch = null;
        }
    }
}
