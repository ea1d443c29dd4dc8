package io.gpuforge.ui.cluster;

import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.ViewScope;
import java.util.List;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.ObjectBinding;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** A node's GPUs as the inventory lists them: address, model, ids, IOMMU group, PCI mapping, where assigned. */
final class NodeGpusView extends VBox implements Disposable {

    private final ViewScope scope = new ViewScope();
    /** Held strongly: a binding only weakly observes its source. */
    private final ObjectBinding<List<GpuInfo>> gpus;

    NodeGpusView(ClusterModel cluster, String node, I18n i18n) {
        setPadding(new Insets(12));
        setSpacing(8);
        TableView<GpuInfo> table = new TableView<>();
        table.setId("node-gpus");
        table.getColumns().setAll(List.of(
                col(i18n, "console.gpus.address", 120, g -> g.address().toString()),
                col(i18n, "console.gpus.name", 240, g -> ConsoleFormat.shortName(g.name())),
                col(i18n, "console.gpus.ids", 100, g -> g.ids().orElse("")),
                col(i18n, "console.gpus.group", 70, g -> g.iommuGroup().isPresent()
                        ? String.valueOf(g.iommuGroup().getAsInt()) : ""),
                col(i18n, "console.gpus.mapping", 120, g -> g.mapping().orElse("")),
                col(i18n, "console.gpus.assigned", 200, g -> g.assignedTo().map(v -> i18n.get("console.gpu.assigned", v.id()))
                        .orElse(i18n.get(g.assignmentKnown() ? "cluster.gpu.free" : "cluster.gpu.unknown")))));
        Label empty = new Label();
        scope.bind(empty.textProperty(), i18n.text("console.gpus.none"));
        table.setPlaceholder(empty);
        VBox.setVgrow(table, Priority.ALWAYS);
        getChildren().setAll(table);
        gpus = Bindings.createObjectBinding(() -> {
            ClusterInventory inv = cluster.inventory().valueProperty().get();
            return inv == null ? List.of() : inv.gpusOn(node);
        }, cluster.inventory().valueProperty());
        scope.listen(gpus, (o, a, b) -> table.setItems(FXCollections.observableArrayList(b)));
        table.setItems(FXCollections.observableArrayList(gpus.get()));
    }

    private TableColumn<GpuInfo, String> col(I18n i18n, String key, double width, Function<GpuInfo, String> f) {
        TableColumn<GpuInfo, String> c = new TableColumn<>();
        scope.bind(c.textProperty(), i18n.text(key));
        c.setPrefWidth(width);
        c.setCellValueFactory(p -> new ReadOnlyStringWrapper(f.apply(p.getValue())));
        return c;
    }

    @Override
    public void dispose() {
        scope.dispose();
        gpus.dispose();
    }
}
