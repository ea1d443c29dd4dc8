package io.gpuforge.ui.cluster;

import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.share.ContainerUse;
import io.gpuforge.domain.share.GpuShare;
import io.gpuforge.domain.share.NodeShares;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.ViewScope;
import io.gpuforge.ui.common.Wrapped;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.ObjectBinding;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.feather.Feather;

/**
 * A node's GPUs as the inventory lists them: address, model, ids, IOMMU group, PCI mapping, the driver that holds
 * it and how it is used (whole to a VM, shared by containers, free), as the node's host says when it was read. A GPU
 * that a container has the old way (raw lxc lines) offers "Migrate to devN…", which opens that container's plan.
 */
final class NodeGpusView extends VBox implements Disposable {

    private final ViewScope scope = new ViewScope();
    /** Held strongly: a binding only weakly observes its source. */
    private final ObjectBinding<List<GpuInfo>> gpus;
    private final ClusterModel cluster;
    private final String node;
    private final I18n i18n;

    NodeGpusView(ClusterModel cluster, String node, ContainerActions actions, I18n i18n) {
        this.cluster = cluster;
        this.node = node;
        this.i18n = i18n;
        setPadding(new Insets(12));
        setSpacing(8);
        TableView<GpuInfo> table = new TableView<>();
        table.setId("node-gpus");
        table.getColumns().setAll(List.of(
                col("console.gpus.address", 110, g -> g.address().toString()),
                col("console.gpus.name", 200, g -> ConsoleFormat.shortName(g.name())),
                col("console.gpus.ids", 90, g -> g.ids().orElse("")),
                col("console.gpus.group", 60, g -> g.iommuGroup().isPresent()
                        ? String.valueOf(g.iommuGroup().getAsInt()) : ""),
                col("console.gpus.mapping", 110, g -> g.mapping().orElse("")),
                col("share.gpus.driver", 90, g -> ShareFormat.driver(g, cluster.shares(node), i18n)),
                col("console.gpus.assigned", 280, g -> ShareFormat.use(g, share(g), i18n))));
        Label empty = new Label();
        scope.bind(empty.textProperty(), i18n.text("console.gpus.none"));
        table.setPlaceholder(empty);
        VBox.setVgrow(table, Priority.ALWAYS);
        Label hostState = Wrapped.wrapped(new Label());
        hostState.setId("node-gpus-host");
        hostState.getStyleClass().add("text-muted");
        Button migrate = new Button();
        migrate.setId("node-gpus-migrate");
        scope.bind(migrate.textProperty(), i18n.text("share.ct.migrate"));
        migrate.setGraphic(Icons.of(Feather.SHUFFLE));
        Label legacy = Wrapped.wrapped(new Label());
        legacy.setId("node-gpus-legacy");
        HBox bar = new HBox(10, migrate, legacy);
        bar.setAlignment(Pos.CENTER_LEFT);
        getChildren().setAll(table, bar, hostState);
        gpus = Bindings.createObjectBinding(() -> {
            ClusterInventory inv = cluster.inventory().valueProperty().get();
            return inv == null ? List.of() : inv.gpusOn(node);
        }, cluster.inventory().valueProperty(), cluster.shares().valueProperty());
        Runnable renderBar = () -> {
            Optional<ContainerUse> old = legacyOf(table.getSelectionModel().getSelectedItem());
            migrate.setDisable(old.isEmpty() || old.flatMap(u -> cluster.current().flatMap(inv -> inv.container(node,
                    u.vmid()))).map(ct -> !actions.can(ContainerActions.Kind.MIGRATE, ct)).orElse(true));
            legacy.setText(old.map(u -> i18n.get("share.gpus.legacy", u.vmid(), u.name())).orElse(""));
            Optional<NodeShares> s = cluster.shares(node);
            hostState.setText(s.isEmpty() ? i18n.get("share.ct.gpuLoading") : s.get().factsMissing()
                    .map(m -> i18n.get("share.gpus.noHost", m)).orElse(""));
        };
        migrate.setOnAction(e -> legacyOf(table.getSelectionModel().getSelectedItem())
                .flatMap(u -> cluster.current().flatMap(inv -> inv.container(node, u.vmid())))
                .ifPresent(ct -> actions.run(ContainerActions.Kind.MIGRATE, ct)));
        scope.listen(gpus, (o, a, b) -> {
            GpuInfo was = table.getSelectionModel().getSelectedItem();
            table.setItems(FXCollections.observableArrayList(b));
            if (was != null) {
                b.stream().filter(g -> g.address().equals(was.address())).findFirst()
                        .ifPresent(g -> table.getSelectionModel().select(g));
            }
            renderBar.run();
        });
        scope.listen(table.getSelectionModel().selectedItemProperty(), (o, a, b) -> renderBar.run());
        table.setItems(FXCollections.observableArrayList(gpus.get()));
        renderBar.run();
    }

    private Optional<GpuShare> share(GpuInfo g) {
        return cluster.shares(node).flatMap(s -> s.of(g.address()));
    }

    /** The first container that has the GPU the old way. */
    private Optional<ContainerUse> legacyOf(GpuInfo g) {
        return g == null ? Optional.empty() : ShareFormat.containers(share(g)).stream().filter(ContainerUse::legacy)
                .findFirst();
    }

    private TableColumn<GpuInfo, String> col(String key, double width, Function<GpuInfo, String> f) {
        return scope.textColumn(i18n, key, width, f);
    }

    @Override
    public void dispose() {
        scope.dispose();
        gpus.dispose();
    }
}
