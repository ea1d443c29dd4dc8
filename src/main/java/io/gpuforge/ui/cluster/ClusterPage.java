package io.gpuforge.ui.cluster;

import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.app.backends.DemoLab;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.ViewScope;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.iommu.IommuGroupsView;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javafx.beans.binding.Bindings;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Window;
import org.kordamp.ikonli.feather.Feather;

/**
 * A hypervisor connection's page, the same for Proxmox VE, the Demo lab and libvirt: its VMs, and the IOMMU groups
 * of a node chosen from its nodes. The Demo lab says plainly that it is simulated.
 */
final class ClusterPage extends VBox implements Disposable {

    private final ViewScope scope = new ViewScope();
    private final VmTableView vms;
    private final IommuGroupsView iommu;

    ClusterPage(ClusterModel model, UiContext ui, Supplier<Window> owner, Optional<DemoLab> demoLab) {
        I18n i18n = ui.i18n();
        ConnectionInfo c = model.session().connection();
        getStyleClass().add("cluster-page");
        if (c.kind() == ConnectionInfo.Kind.DEMO) {
            Label banner = new Label();
            banner.setId("demo-banner");
            scope.bind(banner.textProperty(), i18n.text("demo.banner"));
            banner.getStyleClass().addAll("badge", "badge-warn");
            banner.setWrapText(true);
            banner.setMaxWidth(Double.MAX_VALUE);
            banner.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE); // wraps instead of cutting its text
            HBox.setHgrow(banner, Priority.ALWAYS);
            HBox row = new HBox(10, banner);
            demoLab.ifPresent(lab -> row.getChildren().add(afresh(model, ui, lab)));
            row.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
            VBox.setMargin(row, new Insets(8, 12, 0, 12));
            getChildren().add(row);
        }
        var inventory = model.inventory();
        var header = Bindings.createStringBinding(() -> ClusterHeader.of(inventory.valueProperty().get(),
                model.shares().valueProperty().get(), inventory.errorProperty().get(), i18n),
                inventory.valueProperty(), model.shares().valueProperty(), inventory.errorProperty(),
                i18n.localeProperty());
        var list = Bindings.createObjectBinding(() -> {
            ClusterInventory inv = inventory.valueProperty().get();
            return inv == null ? List.<VmInfo>of() : inv.vms();
        }, inventory.valueProperty());
        vms = new VmTableView(list, header, i18n);

        ChoiceBox<String> node = new ChoiceBox<>();
        node.setId("cluster-node");
        scope.listen(inventory.valueProperty(), (o, a, inv) -> nodes(node, inv));
        nodes(node, inventory.valueProperty().get());
        node.valueProperty().bindBidirectional(model.node());
        scope.onDispose(() -> node.valueProperty().unbindBidirectional(model.node()));
        Label nodeLabel = new Label();
        scope.bind(nodeLabel.textProperty(), i18n.text("cluster.node"));
        HBox chooser = new HBox(10, nodeLabel, node);
        chooser.setPadding(new Insets(12, 12, 0, 12));
        iommu = new IommuGroupsView(model.pci().valueProperty(), model.pci().loadingProperty(), model.pci().errorProperty(),
                i18n);
        iommu.assignments(model.assignments(model.node()));
        // "Pass through to VM…" on a GPU's row: the passthrough wizard at that GPU, as the tree's GPU menu does
        iommu.onPassThrough(address -> Optional.ofNullable(model.node().get()).ifPresent(n ->
                ui.links().passthrough().ifPresent(p -> p.open(owner.get(), c, n, address))));
        VBox iommuBox = new VBox(chooser, iommu);
        VBox.setVgrow(iommu, Priority.ALWAYS);

        TabPane tabs = new TabPane();
        tabs.getStyleClass().add("host-page");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        Tab vmTab = new Tab();
        vmTab.setId("cluster-" + c.id() + "-vms");
        scope.bind(vmTab.textProperty(), i18n.text("host.tab.domains"));
        vmTab.setGraphic(Icons.of(Feather.BOX));
        vmTab.setContent(vms);
        Tab pciTab = new Tab();
        pciTab.setId("cluster-" + c.id() + "-iommu");
        scope.bind(pciTab.textProperty(), i18n.text("host.tab.iommu"));
        pciTab.setGraphic(Icons.of(Feather.LAYERS));
        pciTab.setContent(iommuBox);
        // a node's devices are read when the tab is first opened
        scope.listen(pciTab.selectedProperty(), (o, was, now) -> {
            if (now && model.node().get() != null) {
                model.pci().loadOnce();
            }
        });
        tabs.getTabs().setAll(vmTab, pciTab);
        VBox.setVgrow(tabs, Priority.ALWAYS);
        getChildren().add(tabs);
    }

    /**
     * "Start afresh": the Demo lab as the first time (it remembers what was made in it across runs, in the window and
     * the CLI alike), after a confirmation; the page and the tree read it again.
     */
    private javafx.scene.control.Button afresh(ClusterModel model, UiContext ui, DemoLab lab) {
        javafx.scene.control.Button b = new javafx.scene.control.Button();
        b.setId("demo-reset");
        scope.bind(b.textProperty(), ui.i18n().text("demo.reset"));
        b.setGraphic(Icons.of(Feather.ROTATE_CCW));
        b.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        b.setOnAction(e -> {
            if (!ui.dialogs().confirm("demo.reset.title", ui.i18n().get("demo.reset.confirm"))) {
                return;
            }
            b.setDisable(true);
            ui.tasks().supply(ui.i18n().get("demo.reset.task"), () -> {
                lab.reset();
                return Boolean.TRUE;
            }).onSuccess(v -> model.refresh()).onError(x -> ui.dialogs().showError("demo.reset.title",
                    x.getMessage(), x)).andFinally(() -> b.setDisable(false)).start();
        });
        return b;
    }

    private static void nodes(ChoiceBox<String> box, ClusterInventory inv) {
        List<String> names = inv == null ? List.of() : inv.nodes().stream().map(NodeInfo::name).toList();
        if (!box.getItems().equals(names)) {
            String keep = box.getValue();
            box.setItems(FXCollections.observableArrayList(names));
            box.setValue(names.contains(keep) ? keep : names.isEmpty() ? null : names.get(0));
        }
    }

    @Override
    public void dispose() {
        scope.dispose();
        vms.dispose();
        iommu.dispose();
    }
}
