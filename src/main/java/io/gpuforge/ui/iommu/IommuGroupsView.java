package io.gpuforge.ui.iommu;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.Isolation;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.ViewScope;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableCell;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableRow;
import javafx.scene.control.TreeTableView;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.Duration;
import org.kordamp.ikonli.feather.Feather;

/**
 * A host's IOMMU groups as a tree (group → devices), GPU groups first, with class, ids, name, driver (vfio-pci
 * highlighted), the VM a device is assigned to and each GPU's verdict (the reasons on hover). GPU groups are coloured
 * by isolation: isolated, shares only with bridges, or shared with other devices. A filter box narrows the groups;
 * "Copy as text" puts the classic listing on the clipboard. Renders what its {@link IommuGroupsViewModel} computed;
 * no logic of its own.
 */
public final class IommuGroupsView extends VBox implements Disposable {

    static final String CSS = "/css/passthrough.css";

    /** One row of the tree: a group, or a device of a group. */
    record Row(IommuTable.Group group, Optional<IommuTable.Device> device) {
        Optional<Isolation> isolation() {
            return device.map(IommuTable.Device::isolation).orElse(group.isolation());
        }
    }

    private final TreeTableView<Row> table = new TreeTableView<>();
    private final I18n i18n;
    private final IommuGroupsViewModel model;
    private final ViewScope scope = new ViewScope();
    private final TextField filter = new TextField();
    private Consumer<PciAddress> passThrough;

    public IommuGroupsView(HostFactsViewModel facts, I18n i18n) {
        this(facts.factsProperty(), facts.loadingProperty(), facts.errorProperty(), i18n);
    }

    /** For any source of facts (a probe, or what a hypervisor reports). */
    public IommuGroupsView(ObservableValue<HostFacts> facts, ObservableValue<Boolean> loading, ObservableValue<String> error,
                           I18n i18n) {
        this.i18n = i18n;
        this.model = new IommuGroupsViewModel(facts, error, i18n);
        getStyleClass().add("iommu-view");
        getStylesheets().add(Objects.requireNonNull(IommuGroupsView.class.getResource(CSS), CSS).toExternalForm());
        setPadding(new Insets(12));
        setSpacing(10);
        Label state = new Label();
        state.setId("iommu-state");
        state.setWrapText(true);
        ProgressIndicator busy = new ProgressIndicator();
        busy.setPrefSize(18, 18);
        scope.bind(busy.visibleProperty(), Bindings.createBooleanBinding(() -> Boolean.TRUE.equals(loading.getValue()),
                loading));
        filter.setId("iommu-filter");
        scope.bind(filter.promptTextProperty(), i18n.text("iommu.filter.prompt"));
        filter.setPrefColumnCount(18);
        filter.textProperty().bindBidirectional(model.filterProperty());
        Button copy = new Button();
        copy.setId("iommu-copy");
        copy.setGraphic(Icons.of(Feather.COPY));
        scope.bind(copy.textProperty(), i18n.text("iommu.copy"));
        Tooltip copyTip = new Tooltip();
        scope.bind(copyTip.textProperty(), i18n.text("iommu.copy.tooltip"));
        copy.setTooltip(copyTip);
        copy.setOnAction(e -> {
            ClipboardContent c = new ClipboardContent();
            c.putString(model.copyText());
            Clipboard.getSystemClipboard().setContent(c);
        });
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox.setHgrow(state, Priority.SOMETIMES);
        HBox header = new HBox(10, state, busy, spacer, filter, copy);
        header.setAlignment(Pos.CENTER_LEFT);
        Label legend = new Label();
        scope.bind(legend.textProperty(), i18n.text("iommu.legend"));
        legend.getStyleClass().add("text-muted");
        legend.setWrapText(true);
        legend.setMinHeight(Region.USE_PREF_SIZE);

        table.setId("iommu-table");
        table.setShowRoot(false);
        table.setColumnResizePolicy(TreeTableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        TreeTableColumn<Row, String> driver = column("iommu.column.driver", 100, r -> r.device()
                .map(IommuTable.Device::driver).orElse(""));
        driver.setCellFactory(c -> new TreeTableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
                getStyleClass().remove("driver-vfio");
                if (!empty && "vfio-pci".equals(item)) {
                    getStyleClass().add("driver-vfio");
                }
            }
        });
        TreeTableColumn<Row, String> device = column("iommu.column.device", 170, r -> r.device()
                .map(IommuTable.Device::address).orElseGet(() -> i18n.get("iommu.group", r.group().id())));
        TreeTableColumn<Row, String> classCode = column("iommu.column.class", 60, r -> r.device()
                .map(IommuTable.Device::classCode).orElse(""));
        TreeTableColumn<Row, String> ids = column("iommu.column.ids", 90, r -> r.device().map(IommuTable.Device::ids)
                .orElse(""));
        // the bounded columns keep room for their whole value (an address under its group's indent, "10de:2204",
        // "snd_hda_intel"); the name column gives way when the window is narrow
        device.setMinWidth(150);
        classCode.setMinWidth(58);
        ids.setMinWidth(92);
        driver.setMinWidth(122);
        TreeTableColumn<Row, String> vm = column("iommu.column.vm", 100, r -> r.device().flatMap(IommuTable.Device::vm)
                .orElse(""));
        vm.setMinWidth(72);
        TreeTableColumn<Row, IommuTable.Badge> verdict = verdictColumn();
        verdict.setMinWidth(116);
        table.getColumns().setAll(List.of(device, classCode, ids,
                column("iommu.column.name", 330, r -> r.device().map(IommuTable.Device::name).orElse(r.group().summary())),
                driver, vm, verdict));
        table.setRowFactory(t -> new TreeTableRow<>() {
            @Override
            protected void updateItem(Row row, boolean empty) {
                super.updateItem(row, empty);
                getStyleClass().removeAll("iso-isolated", "iso-bridges", "iso-shared", "group-row");
                setContextMenu(null);
                if (!empty && row != null) {
                    row.isolation().ifPresent(i -> getStyleClass().add(IommuTable.styleOf(i)));
                    if (row.device().isEmpty()) {
                        getStyleClass().add("group-row");
                    }
                    row.device().filter(d -> d.device().isGpu() && passThrough != null).ifPresent(d -> {
                        MenuItem go = new MenuItem(i18n.get("iommu.passThrough"));
                        go.setId("iommu-pass-through");
                        go.setOnAction(e -> passThrough.accept(d.device().address()));
                        setContextMenu(new ContextMenu(go));
                    });
                }
            }
        });
        Label empty = new Label();
        scope.bind(empty.textProperty(), i18n.text("iommu.empty"));
        table.setPlaceholder(empty);
        VBox.setVgrow(table, Priority.ALWAYS);
        getChildren().setAll(header, legend, table);
        scope.listen(model.tableProperty(), (o, a, t) -> render(state, t));
        render(state, model.tableProperty().get());
    }

    /** The VMs the devices are assigned to (from a hypervisor's inventory): shown in the VM column. */
    public void assignments(ObservableValue<Map<PciAddress, String>> vms) {
        scope.bind(model.vmsProperty(), vms);
    }

    /** What "Pass through to VM…" on a GPU row does (the passthrough wizard with that GPU); no menu without it. */
    public void onPassThrough(Consumer<PciAddress> handler) {
        this.passThrough = handler;
        table.refresh();
    }

    private TreeTableColumn<Row, IommuTable.Badge> verdictColumn() {
        TreeTableColumn<Row, IommuTable.Badge> c = new TreeTableColumn<>();
        scope.bind(c.textProperty(), i18n.text("iommu.column.verdict"));
        c.setPrefWidth(150);
        c.setCellValueFactory(p -> new ReadOnlyObjectWrapper<>(p.getValue().getValue() == null ? null
                : p.getValue().getValue().device().flatMap(IommuTable.Device::verdict).orElse(null)));
        c.setCellFactory(col -> new TreeTableCell<>() {
            @Override
            protected void updateItem(IommuTable.Badge b, boolean empty) {
                super.updateItem(b, empty);
                setText(null);
                setTooltip(null);
                if (empty || b == null) {
                    setGraphic(null);
                    return;
                }
                Label badge = new Label(b.text());
                badge.getStyleClass().addAll("badge", IommuTable.styleOf(b.kind()), "verdict-badge");
                Tooltip tip = new Tooltip(b.reasons());
                tip.setShowDelay(Duration.millis(200));
                tip.setWrapText(true);
                tip.setMaxWidth(520);
                badge.setTooltip(tip);
                setTooltip(tip);
                setGraphic(badge);
            }
        });
        return c;
    }

    private TreeTableColumn<Row, String> column(String key, double width, Function<Row, String> f) {
        TreeTableColumn<Row, String> c = new TreeTableColumn<>();
        scope.bind(c.textProperty(), i18n.text(key));
        c.setPrefWidth(width);
        c.setCellValueFactory(p -> new ReadOnlyStringWrapper(p.getValue().getValue() == null ? ""
                : f.apply(p.getValue().getValue())));
        return c;
    }

    /** The device to select once the table shows it (a GPU opened from the tree before its node was read). */
    private Optional<PciAddress> wanted = Optional.empty();

    /** Selects {@code device}'s row now, or when the table is next drawn with it. */
    public void select(PciAddress device) {
        wanted = Optional.of(device);
        selectWanted();
    }

    private void selectWanted() {
        if (wanted.isEmpty() || table.getRoot() == null) {
            return;
        }
        for (TreeItem<Row> g : table.getRoot().getChildren()) {
            for (TreeItem<Row> d : g.getChildren()) {
                if (d.getValue().device().map(x -> x.device().address().equals(wanted.get())).orElse(false)) {
                    g.setExpanded(true);
                    table.getSelectionModel().select(d);
                    int row = table.getRow(d);
                    if (row >= 0) {
                        table.scrollTo(row);
                    }
                    wanted = Optional.empty();
                    return;
                }
            }
        }
    }

    private void render(Label state, IommuTable t) {
        TreeItem<Row> root = new TreeItem<>();
        for (IommuTable.Group g : t.groups()) {
            TreeItem<Row> gi = new TreeItem<>(new Row(g, Optional.empty()));
            for (IommuTable.Device d : g.devices()) {
                gi.getChildren().add(new TreeItem<>(new Row(g, Optional.of(d))));
            }
            gi.setExpanded(g.expanded());
            root.getChildren().add(gi);
        }
        table.setRoot(root);
        state.setText(t.state());
        selectWanted();
    }

    @Override
    public void dispose() {
        scope.dispose();
        filter.textProperty().unbindBidirectional(model.filterProperty());
        model.dispose();
    }

    TreeTableView<Row> table() {
        return table;
    }

    IommuGroupsViewModel model() {
        return model;
    }
}
