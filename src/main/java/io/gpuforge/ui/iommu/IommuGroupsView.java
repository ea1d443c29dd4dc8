package io.gpuforge.ui.iommu;

import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.Isolation;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.ViewScope;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableRow;
import javafx.scene.control.TreeTableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * A host's IOMMU groups as a tree (group → devices) with class, ids, name and driver. GPU groups are
 * coloured by isolation: isolated, shares only with bridges, or shared with other devices. Renders what its
 * {@link IommuGroupsViewModel} computed; no logic of its own.
 */
public final class IommuGroupsView extends VBox implements Disposable {

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

    public IommuGroupsView(HostFactsViewModel facts, I18n i18n) {
        this(facts.factsProperty(), facts.loadingProperty(), facts.errorProperty(), i18n);
    }

    /** For any source of facts (a probe, or what a hypervisor reports). */
    public IommuGroupsView(ObservableValue<HostFacts> facts, ObservableValue<Boolean> loading, ObservableValue<String> error,
                           I18n i18n) {
        this.i18n = i18n;
        this.model = new IommuGroupsViewModel(facts, error, i18n);
        getStyleClass().add("iommu-view");
        setPadding(new Insets(12));
        setSpacing(10);
        Label state = new Label();
        state.setId("iommu-state");
        state.setWrapText(true);
        ProgressIndicator busy = new ProgressIndicator();
        busy.setPrefSize(18, 18);
        scope.bind(busy.visibleProperty(), Bindings.createBooleanBinding(() -> Boolean.TRUE.equals(loading.getValue()),
                loading));
        HBox header = new HBox(10, state, busy);
        Label legend = new Label();
        scope.bind(legend.textProperty(), i18n.text("iommu.legend"));
        legend.getStyleClass().add("text-muted");
        legend.setWrapText(true);
        legend.setMinHeight(Region.USE_PREF_SIZE);

        table.setId("iommu-table");
        table.setShowRoot(false);
        table.setColumnResizePolicy(TreeTableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().setAll(List.of(
                column("iommu.column.device", 170, r -> r.device().map(IommuTable.Device::address)
                        .orElseGet(() -> i18n.get("iommu.group", r.group().id()))),
                column("iommu.column.class", 60, r -> r.device().map(IommuTable.Device::classCode).orElse("")),
                column("iommu.column.ids", 90, r -> r.device().map(IommuTable.Device::ids).orElse("")),
                column("iommu.column.name", 380, r -> r.device().map(IommuTable.Device::name).orElse(r.group().summary())),
                column("iommu.column.driver", 110, r -> r.device().map(IommuTable.Device::driver).orElse(""))));
        table.setRowFactory(t -> new TreeTableRow<>() {
            @Override
            protected void updateItem(Row row, boolean empty) {
                super.updateItem(row, empty);
                getStyleClass().removeAll("iso-isolated", "iso-bridges", "iso-shared", "group-row");
                if (!empty && row != null) {
                    row.isolation().ifPresent(i -> getStyleClass().add(IommuTable.styleOf(i)));
                    if (row.device().isEmpty()) {
                        getStyleClass().add("group-row");
                    }
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

    private TreeTableColumn<Row, String> column(String key, double width, Function<Row, String> f) {
        TreeTableColumn<Row, String> c = new TreeTableColumn<>();
        scope.bind(c.textProperty(), i18n.text(key));
        c.setPrefWidth(width);
        c.setCellValueFactory(p -> new ReadOnlyStringWrapper(p.getValue().getValue() == null ? ""
                : f.apply(p.getValue().getValue())));
        return c;
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
    }

    @Override
    public void dispose() {
        scope.dispose();
        model.dispose();
    }

    TreeTableView<Row> table() {
        return table;
    }
}
