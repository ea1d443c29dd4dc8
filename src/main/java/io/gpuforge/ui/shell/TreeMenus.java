package io.gpuforge.ui.shell;

import io.gpuforge.domain.Capability;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.ui.cluster.ActionLabels;
import io.gpuforge.ui.cluster.ContainerActions;
import io.gpuforge.domain.share.ContainerSummary;
import io.gpuforge.domain.share.ContainerUse;
import io.gpuforge.domain.share.GpuShare;
import io.gpuforge.ui.cluster.ShareFormat;
import io.gpuforge.ui.cluster.HypervisorPages;
import io.gpuforge.ui.cluster.VmActions;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.NavItem;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.feather.Feather;

/**
 * The context menu of each tree item: a connection (open, refresh, edit, remove), a node (open, link to its host),
 * a VM (open, and the actions its state allows), a GPU (open its node's devices).
 */
final class TreeMenus {

    /** What the window does for the menu items that are not VM actions. */
    record Handlers(Consumer<NavItem> open, Runnable refresh, Consumer<ConnectionInfo> edit,
                    Consumer<ConnectionInfo> remove, BiConsumer<ConnectionInfo, String> linkHost) {
    }

    private final I18n i18n;
    private final HypervisorPages hypervisors;
    private final Handlers handlers;
    /** "Pass through to VM…" on a GPU: set by the passthrough wizard's wiring; the item is hidden while null. */
    private BiConsumer<ConnectionInfo, GpuInfo> passThrough;
    /** "Show its charts" on a GPU: set by the GPU monitor's wiring; the item is hidden while null. */
    private BiConsumer<ConnectionInfo, GpuInfo> charts;
    /** "Create VM…" on a node: set by the VM creation wizard's wiring; the item is hidden while null. */
    private BiConsumer<ConnectionInfo, String> createVm;

    TreeMenus(I18n i18n, HypervisorPages hypervisors, Handlers handlers) {
        this.i18n = i18n;
        this.hypervisors = hypervisors;
        this.handlers = handlers;
    }

    void onPassThrough(BiConsumer<ConnectionInfo, GpuInfo> action) {
        passThrough = action;
    }

    void onCharts(BiConsumer<ConnectionInfo, GpuInfo> action) {
        charts = action;
    }

    void onCreateVm(BiConsumer<ConnectionInfo, String> action) {
        createVm = action;
    }

    List<MenuItem> of(NavItem item) {
        List<MenuItem> out = new ArrayList<>();
        out.add(item("menu-open", "console.menu.open", Feather.EXTERNAL_LINK, () -> handlers.open().accept(item)));
        Optional<ConnectionInfo> c = item.connection();
        if (c.isEmpty()) {
            return out;
        }
        switch (item.kind()) {
            case CONNECTION:
                out.add(item("menu-refresh", "action.refresh", Feather.REFRESH_CW, handlers.refresh()));
                out.add(new SeparatorMenuItem());
                out.add(item("menu-edit", "console.action.editConnection", Feather.EDIT,
                        () -> handlers.edit().accept(c.get())));
                out.add(item("menu-remove", "console.action.removeConnection", Feather.TRASH_2,
                        () -> handlers.remove().accept(c.get())));
                break;
            case NODE:
                item.node().ifPresent(n -> {
                    if (createVm != null && hypervisors.serves(c.get())) {
                        BiConsumer<ConnectionInfo, String> create = createVm;
                        out.add(item("menu-create-vm", "console.menu.createVm", Feather.PLUS_SQUARE,
                                () -> create.accept(c.get(), n)));
                    }
                    if (hypervisors.hasContainers(c.get())) {
                        out.add(item("menu-create-ct", "share.menu.createCt", Feather.PACKAGE,
                                () -> hypervisors.createContainer(c.get(), Optional.of(n), Optional.empty())));
                    }
                    out.add(item("menu-link", "console.menu.linkHost", Feather.LINK,
                            () -> handlers.linkHost().accept(c.get(), n)));
                });
                break;
            case GPU:
                item.target().flatMap(t -> t.gpu()).ifPresent(g -> {
                    if (charts != null) {
                        BiConsumer<ConnectionInfo, GpuInfo> show = charts;
                        out.add(item("menu-gpu-charts", "console.menu.gpuCharts", Feather.ACTIVITY,
                                () -> show.accept(c.get(), g)));
                    }
                    if (passThrough != null) {
                        BiConsumer<ConnectionInfo, GpuInfo> pass = passThrough;
                        out.add(item("menu-pass-through", "console.menu.passThrough", Feather.ZAP,
                                () -> pass.accept(c.get(), g)));
                    }
                    if (hypervisors.hasContainers(c.get()) && g.assignedTo().isEmpty()) {
                        out.add(item("menu-share-ct", "share.menu.shareGpu", Feather.PACKAGE,
                                () -> hypervisors.createContainer(c.get(), Optional.of(g.node()),
                                        Optional.of(g.address()))));
                    }
                    migrateItems(c.get(), g.node(), item.target().flatMap(t -> t.share()), out);
                });
                break;
            case VM:
                item.target().flatMap(t -> t.vm()).ifPresent(vm -> vmItems(c.get(), vm, out));
                break;
            case CONTAINER:
                item.target().flatMap(t -> t.container()).ifPresent(ct -> containerItems(c.get(), ct, out));
                break;
            default:
                break;
        }
        return out;
    }

    private void vmItems(ConnectionInfo c, VmInfo vm, List<MenuItem> out) {
        if (!hypervisors.serves(c)) {
            return;
        }
        VmActions actions = hypervisors.actions(c);
        out.add(new SeparatorMenuItem());
        for (VmActions.Kind k : VmActions.Kind.values()) {
            if (k == VmActions.Kind.CONSOLE && !hypervisors.model(c).session().can(Capability.VM_LIFECYCLE)) {
                continue;
            }
            MenuItem m = item("menu-vm-" + k.name().toLowerCase(Locale.ROOT), ActionLabels.key(k), ActionLabels.icon(k),
                    () -> actions.run(k, vm));
            m.setDisable(!actions.can(k, vm));
            out.add(m);
        }
    }

    /** "Migrate CT 201 to devN…" for each container that has the GPU the old way. */
    private void migrateItems(ConnectionInfo c, String node, Optional<GpuShare> share, List<MenuItem> out) {
        if (!hypervisors.serves(c)) {
            return;
        }
        ContainerActions actions = hypervisors.containerActions(c);
        for (ContainerUse u : ShareFormat.containers(share)) {
            Optional<ContainerSummary> ct = hypervisors.model(c).current().flatMap(inv -> inv.container(node, u.vmid()));
            if (u.legacy() && ct.isPresent()) {
                MenuItem m = new MenuItem(i18n.get("share.gpu.migrateCt", u.vmid(), u.name()));
                m.setId("menu-gpu-migrate-" + u.vmid());
                m.setGraphic(Icons.of(Feather.SHUFFLE));
                m.setOnAction(e -> actions.run(ContainerActions.Kind.MIGRATE, ct.get()));
                m.setDisable(!actions.can(ContainerActions.Kind.MIGRATE, ct.get()));
                out.add(m);
            }
        }
    }

    private void containerItems(ConnectionInfo c, ContainerSummary ct, List<MenuItem> out) {
        if (!hypervisors.serves(c)) {
            return;
        }
        ContainerActions actions = hypervisors.containerActions(c);
        out.add(new SeparatorMenuItem());
        for (ContainerActions.Kind k : ContainerActions.Kind.values()) {
            MenuItem m = item("menu-ct-" + k.name().toLowerCase(Locale.ROOT), ContainerActions.key(k),
                    ContainerActions.icon(k), () -> actions.run(k, ct));
            m.setDisable(!actions.can(k, ct));
            out.add(m);
        }
    }

    private MenuItem item(String id, String key, Ikon icon, Runnable action) {
        MenuItem m = new MenuItem(i18n.get(key));
        m.setId(id);
        m.setGraphic(Icons.of(icon));
        m.setOnAction(e -> action.run());
        return m;
    }
}
