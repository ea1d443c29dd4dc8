package io.gpuforge.ui.cluster;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmDetails;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.ViewScope;
import io.gpuforge.ui.common.VmPageExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.ObjectBinding;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Window;
import org.kordamp.ikonli.feather.Feather;

/**
 * A VM's page, the same for both backends: its state and node, the actions it offers now (start, shut down, reboot,
 * stop, clone, template, delete, console, and what other features add), and its whole configuration: machine,
 * firmware, CPU, memory, every disk, NIC and passed-through device. Renders its models; no logic of its own.
 */
final class VmPage extends VBox implements Disposable {

    private final ViewScope scope = new ViewScope();
    /** Held strongly: a binding only weakly observes its source and would be collected with our listeners. */
    private final ObjectBinding<VmInfo> info;
    private final TabPane tabs = new TabPane();
    private final I18n i18n;

    /** Whether a setting left out of the configuration is at Proxmox VE's default (a Proxmox VE or Demo lab VM). */
    private final boolean proxmoxDefaults;

    VmPage(UiContext ui, ClusterModel cluster, VmModel model, VmActions actions, List<VmPageExtension> extensions,
           Window owner) {
        ConnectionInfo.Kind kind = cluster.session().connection().kind();
        proxmoxDefaults = kind == ConnectionInfo.Kind.PROXMOX || kind == ConnectionInfo.Kind.DEMO;
        this.i18n = ui.i18n();
        VmRef ref = model.ref();
        getStyleClass().add("vm-page");
        setPadding(new Insets(12));
        setSpacing(10);
        info = Bindings.createObjectBinding(() -> {
            ClusterInventory inv = cluster.inventory().valueProperty().get();
            return inv == null ? null : inv.vm(ref).orElse(null);
        }, cluster.inventory().valueProperty());

        Label title = new Label();
        title.setId("vm-title");
        title.getStyleClass().add("title-3");
        Label state = new Label();
        state.setId("vm-state");
        Label node = new Label();
        node.setId("vm-node");
        node.getStyleClass().add("text-muted");
        HBox header = new HBox(10, Icons.of(Feather.BOX, 20), title, state, node);

        ActionBar<VmActions.Kind, VmInfo> actionBar = new ActionBar<>("vm", VmActions.Kind.class, scope, i18n,
                ActionLabels::key, ActionLabels::icon, info::get, actions::can, actions::run);
        FlowPane bar = actionBar.bar();
        Map<VmActions.Kind, Button> buttons = actionBar.buttons();
        VmPageExtension.Context context = new VmPageExtension.Context(ui, cluster.session().connection(), ref, info, owner);
        List<Tab> extra = new ArrayList<>();
        for (VmPageExtension x : extensions) {
            bar.getChildren().addAll(x.actions(context));
            extra.addAll(x.tabs(context));
        }

        Label configState = new Label();
        configState.setId("vm-config-state");
        configState.setWrapText(true);
        GridPane facts = new GridPane();
        facts.setHgap(16);
        facts.setVgap(6);
        facts.setId("vm-config");
        Tab configTab = new Tab();
        configTab.setId("vm-config-tab");
        scope.bind(configTab.textProperty(), i18n.text("console.vm.tab.config"));
        configTab.setGraphic(Icons.of(Feather.SLIDERS));
        ScrollPane scroll = new ScrollPane(new VBox(10, configState, facts));
        scroll.setFitToWidth(true);
        configTab.setContent(scroll);
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        tabs.getTabs().add(configTab);
        tabs.getTabs().addAll(extra);
        VBox.setVgrow(tabs, Priority.ALWAYS);
        getChildren().setAll(header, bar, tabs);

        Runnable renderInfo = () -> {
            VmInfo v = info.get();
            title.setText(v == null ? ref.id() : ConsoleFormat.vmLabel(v) + (v.template() ? " " + i18n.get("domains.template")
                    : ""));
            state.setText(v == null ? i18n.get("console.vm.gone") : i18n.get("vm.state." + v.state().json()));
            state.getStyleClass().setAll("label", "badge", v != null && v.state().isRunning() ? "badge-ok" : "badge-muted");
            node.setText(i18n.get("console.vm.onNode", ref.node(), cluster.session().connection().name()));
            buttons.forEach((k, b) -> {
                b.setDisable(!actions.can(k, v));
                b.setVisible(k != VmActions.Kind.START && k != VmActions.Kind.TEMPLATE || v == null || !v.template());
                b.setManaged(b.isVisible());
            });
        };
        scope.listen(info, (o, a, b) -> renderInfo.run());
        scope.listen(i18n.localeProperty(), (o, a, b) -> renderInfo.run());
        renderInfo.run();
        Runnable renderConfig = () -> render(facts, configState, model);
        scope.listen(model.config().valueProperty(), (o, a, b) -> renderConfig.run());
        scope.listen(model.config().errorProperty(), (o, a, b) -> renderConfig.run());
        scope.listen(model.config().loadingProperty(), (o, a, b) -> renderConfig.run());
        renderConfig.run();
        model.config().loadOnce();
    }

    private void render(GridPane grid, Label state, VmModel model) {
        VmConfig c = model.config().valueProperty().get();
        String error = model.config().errorProperty().get();
        // the version is a digest nobody reads: named, and given in full on hover
        state.setText(error != null ? i18n.get("console.vm.configError", error)
                : c == null ? i18n.get("console.vm.configLoading") : i18n.get("console.vm.configCurrent"));
        state.setTooltip(c == null || error != null ? null
                : new javafx.scene.control.Tooltip(i18n.get("console.vm.configVersion", c.version())));
        state.getStyleClass().removeAll("danger");
        if (error != null) {
            state.getStyleClass().add("danger");
        }
        grid.getChildren().clear();
        if (c == null) {
            return;
        }
        VmDetails d = c.details();
        int row = 0;
        row = fact(grid, row, "console.vm.machine", "vm-machine", d.machine().orElse(i18n.get("console.vm.default")));
        row = fact(grid, row, "console.vm.firmware", "vm-firmware", d.firmware().json());
        row = fact(grid, row, "console.vm.cpu", "vm-cpu", i18n.get("console.vm.cpuValue", d.vcpus(), d.sockets(), d.cores()));
        row = fact(grid, row, "console.vm.memory", "vm-memory", ConsoleFormat.bytes(d.memoryBytes()));
        // Proxmox VE leaves out what is at its default: a balloon device is on, the guest agent off
        boolean pve = proxmoxDefaults;
        row = fact(grid, row, "console.vm.balloon", "vm-balloon", d.balloon().map(this::yesNo)
                .orElse(pve ? i18n.get("console.vm.byDefault", yesNo(true)) : yesNo(null)));
        row = fact(grid, row, "console.vm.agent", "vm-agent", d.guestAgent().map(this::yesNo)
                .orElse(pve ? i18n.get("console.vm.byDefault", yesNo(false)) : yesNo(null)));
        row = fact(grid, row, "console.vm.ostype", "vm-ostype", d.osType().orElse(pve
                ? i18n.get("console.vm.byDefault", "other") : i18n.get("value.unknown")));
        row = list(grid, row, "console.vm.disks", "vm-disks", d.disks(), ConsoleFormat::disk);
        row = list(grid, row, "console.vm.nics", "vm-nics", d.nics(), ConsoleFormat::nic);
        row = list(grid, row, "console.vm.devices", "vm-devices", d.hostDevices(), PciAddress::toString);
        list(grid, row, "console.vm.mappings", "vm-mappings", d.pciMappings(), s -> s);
    }

    private String yesNo(Boolean b) {
        return b == null ? i18n.get("value.unknown") : i18n.get(b ? "console.yes" : "console.no");
    }

    private int fact(GridPane grid, int row, String key, String id, String value) {
        return new FactRows(i18n, grid).fact(row, key, id, value);
    }

    private <T> int list(GridPane grid, int row, String key, String id, List<T> items, Function<T, String> f) {
        return new FactRows(i18n, grid).list(row, key, id, items.stream().map(f).toList());
    }

    @Override
    public void dispose() {
        scope.dispose();
        info.dispose();
        for (Tab t : tabs.getTabs()) {
            t.textProperty().unbind();
            Disposable.of(t.getContent());
        }
    }
}
