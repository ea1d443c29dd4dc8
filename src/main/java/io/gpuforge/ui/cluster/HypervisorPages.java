package io.gpuforge.ui.cluster;

import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.app.backends.DemoLab;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.share.ContainerSummary;
import io.gpuforge.ui.share.AddGpuWindow;
import io.gpuforge.ui.share.ContainerWizard;
import javafx.scene.control.Button;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.NavItem;
import io.gpuforge.ui.common.NavTarget;
import io.gpuforge.ui.common.Page;
import io.gpuforge.ui.common.PageExtensions;
import io.gpuforge.ui.common.PageFactory;
import io.gpuforge.ui.common.UiContext;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import javafx.beans.binding.Bindings;
import javafx.stage.Window;
import org.kordamp.ikonli.feather.Feather;

/**
 * Every connection with a hypervisor behind it (Proxmox VE, the Demo lab, libvirt), through the one service
 * layer: no page knows which backend answers. Serves the connection's page (its VMs, IOMMU groups of a node), each
 * node's page and each VM's page; keeps one {@link ClusterModel} per connection, which the tree shares. The kinds
 * come from the app ({@code Sessions.isHypervisor}).
 */
public final class HypervisorPages implements PageFactory {

    private final UiContext ui;
    private final ClusterServices services;
    private final BiConsumer<ConnectionInfo, HostFacts> onFacts;
    private final PageExtensions extensions;
    private final Supplier<Window> owner;
    private final Optional<DemoLab> demoLab;
    private final Map<Long, ClusterModel> models = new ConcurrentHashMap<>();
    private final Map<Long, VmActions> actions = new ConcurrentHashMap<>();
    private final Map<Long, ContainerActions> ctActions = new ConcurrentHashMap<>();

    /** @param onFacts told when a node's PCI devices arrive (the tree lists the GPUs of one-node connections) */
    public HypervisorPages(UiContext ui, ClusterServices services, BiConsumer<ConnectionInfo, HostFacts> onFacts) {
        this(ui, services, onFacts, new PageExtensions(), () -> null, Optional.empty());
    }

    /** @param demoLab the Demo lab, which its page can start afresh; empty: no such button */
    public HypervisorPages(UiContext ui, ClusterServices services, BiConsumer<ConnectionInfo, HostFacts> onFacts,
                           PageExtensions extensions, Supplier<Window> owner, Optional<DemoLab> demoLab) {
        this.ui = ui;
        this.services = services;
        this.onFacts = onFacts;
        this.extensions = extensions;
        this.owner = owner;
        this.demoLab = demoLab;
    }

    /** Where views compute what they show from a model's values, off the FX thread (the app's background pool). */
    public Executor background() {
        return services.background();
    }

    /** Whether this connection has a hypervisor behind it. */
    public boolean serves(ConnectionInfo c) {
        return services.sessions().isHypervisor(c.kind());
    }

    /** The model of a hypervisor connection, shared by its pages and the tree (made on first use). */
    public ClusterModel model(ConnectionInfo c) {
        return models.computeIfAbsent(c.id(), id -> {
            ClusterModel m = new ClusterModel(services.sessions().of(c), services.share().shares(), ui.tasks(), ui.i18n());
            m.pci().valueProperty().addListener((o, a, f) -> {
                if (f != null && m.current().map(inv -> inv.nodes().size() == 1).orElse(false)) {
                    onFacts.accept(c, f);
                }
            });
            m.addEventListener(e -> {
                if (e.kind() != ChangeEvent.Kind.CONNECTION && e.kind() != ChangeEvent.Kind.TASK) {
                    services.events().info(c.name(), ui.i18n().get("event.change", e.kind().name()
                            .toLowerCase(Locale.ROOT).replace('_', ' '), e.vm().map(VmRef::id).orElse(""), e.detail()));
                }
            });
            m.stateProperty().addListener((o, a, s) -> {
                if (s.status() == ConnectionState.Status.RECONNECTING || s.status() == ConnectionState.Status.FAILED) {
                    services.events().warn(c.name(), ui.i18n().get("console.event.connectionLost", s.message()));
                } else if (s.isConnected() && a != null && a.status() == ConnectionState.Status.RECONNECTING) {
                    services.events().info(c.name(), ui.i18n().get("console.event.connectionBack"));
                }
            });
            return m;
        });
    }

    /** Reads the connection's inventory and starts its change feed (once); failures of the feed go to the events. */
    public ClusterModel start(ConnectionInfo c) {
        ClusterModel m = model(c);
        m.start(t -> services.events().warn(c.name(), ui.i18n().get("event.noLiveUpdates", t.getMessage())));
        return m;
    }

    /** The VM actions of a connection (the tree's menus and the VM pages use the same). */
    public VmActions actions(ConnectionInfo c) {
        return actions.computeIfAbsent(c.id(), id -> new VmActions(ui, services, model(c), owner));
    }

    /** The container actions of a connection (the tree's menus and the container pages use the same). */
    public ContainerActions containerActions(ConnectionInfo c) {
        return ctActions.computeIfAbsent(c.id(), id -> new ContainerActions(ui, services, model(c), owner));
    }

    /**
     * Opens the container wizard on a connection with containers, at a node (and a GPU to share) when given; the
     * inventory and the shares are read again once it made one.
     */
    public void createContainer(ConnectionInfo c, Optional<String> node, Optional<PciAddress> gpu) {
        ClusterModel m = model(c);
        ContainerWizard.open(ui, services.share(), owner.get(), c, node, gpu, () -> {
            m.inventory().changed();
            m.sharesChanged();
        });
    }

    /** Whether a connection offers containers (the Demo lab and Proxmox VE do). */
    public boolean hasContainers(ConnectionInfo c) {
        return serves(c) && model(c).session().can(Capability.CONTAINERS);
    }

    @Override
    public Optional<Page> page(NavItem item) {
        Optional<ConnectionInfo> c = item.connection().filter(this::serves);
        if (c.isEmpty()) {
            return Optional.empty();
        }
        Optional<NavTarget> t = item.target();
        if (t.isPresent() && t.get().vm().isPresent()) {
            return Optional.of(vmPage(c.get(), t.get().vm().get()));
        }
        if (t.isPresent() && t.get().container().isPresent()) {
            return Optional.of(containerPage(c.get(), t.get().container().get()));
        }
        if (t.isPresent()) {
            return Optional.of(nodePage(c.get(), t.get().node()));
        }
        return Optional.of(page(c.get()));
    }

    private Page page(ConnectionInfo c) {
        ClusterModel m = model(c);
        Feather icon = c.kind() == ConnectionInfo.Kind.LIBVIRT ? Feather.SERVER : Feather.CLOUD;
        return new Page("tab-cluster-" + c.id(), Bindings.createStringBinding(c::name), Icons.of(icon), () -> {
            ClusterPage page = new ClusterPage(m, ui, owner, demoLab);
            start(c);
            return page;
        });
    }

    private Page nodePage(ConnectionInfo c, String node) {
        ClusterModel m = model(c);
        return new Page("tab-node-" + c.id() + "-" + node, Bindings.createStringBinding(() -> node + " · " + c.name()),
                Icons.of(Feather.HARD_DRIVE), () -> {
                    start(c);
                    return new NodePage(ui, services, m, m.nodeModel(node), containerActions(c), extensions.node(), owner.get());
                });
    }

    private Page vmPage(ConnectionInfo c, VmInfo vm) {
        ClusterModel m = model(c);
        VmRef ref = vm.ref();
        return new Page("tab-vm-" + c.id() + "-" + ref.node() + "-" + ref.id(),
                Bindings.createStringBinding(() -> ConsoleFormat.vmLabel(vm)), Icons.of(Feather.BOX), () -> {
                    start(c);
                    return new VmPage(ui, m, m.vmModel(ref), actions(c), extensions.vm(), owner.get());
                });
    }

    private Page containerPage(ConnectionInfo c, ContainerSummary ct) {
        ClusterModel m = model(c);
        return new Page("tab-ct-" + c.id() + "-" + ct.node() + "-" + ct.vmid(),
                Bindings.createStringBinding(() -> "CT " + ct.vmid() + " " + ct.name()), Icons.of(Feather.PACKAGE), () -> {
                    start(c);
                    Button addGpu = new Button(ui.i18n().get("share.ct.addGpu"));
                    addGpu.setId("ct-add-gpu");
                    addGpu.setGraphic(Icons.of(Feather.PLUS_CIRCLE));
                    addGpu.setOnAction(e -> AddGpuWindow.open(ui, services.share(), owner.get(), c, ct.node(), ct.vmid(),
                            m::sharesChanged));
                    return new ContainerPage(ui, m, ct.node(), ct.vmid(), containerActions(c), List.of(addGpu));
                });
    }

    /** A removed (or edited) connection: its model, feed and session go. */
    public void forget(long connectionId) {
        ClusterModel m = models.remove(connectionId);
        actions.remove(connectionId);
        ctActions.remove(connectionId);
        if (m != null) {
            m.dispose();
        }
        services.sessions().forget(connectionId);
    }

    @Override
    public void refresh() {
        models.values().forEach(ClusterModel::refresh);
    }

    @Override
    public void dispose() {
        models.values().forEach(ClusterModel::dispose);
        models.clear();
        actions.clear();
        ctActions.clear();
    }
}
