package io.gpuforge.ui.iommu;

import io.gpuforge.domain.GpuPlacement;
import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.IommuGroup;
import io.gpuforge.domain.Isolation;
import io.gpuforge.domain.PciAddress;
import io.gpuforge.domain.PciDevice;
import io.gpuforge.ui.common.I18n;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
import javafx.scene.layout.VBox;

/**
 * A host's IOMMU groups as a tree (group → devices) with class, ids, name and driver. GPU groups are
 * coloured by isolation: isolated, shares only with bridges, or shared with other devices.
 */
public final class IommuGroupsView extends VBox {

    /** One row: a group (device empty) or a device of a group. */
    record Row(int group, Optional<PciDevice> device, Optional<Isolation> isolation, String summary) {
    }

    private final TreeTableView<Row> table = new TreeTableView<>();
    private final I18n i18n;
    private final ObservableValue<HostFacts> facts;
    private final ObservableValue<String> error;

    public IommuGroupsView(HostFactsViewModel model, I18n i18n) {
        this(model.factsProperty(), model.loadingProperty(), model.errorProperty(), i18n);
    }

    /** For any source of facts (a probe, or what libvirt reports). */
    public IommuGroupsView(ObservableValue<HostFacts> facts, ObservableValue<Boolean> loading, ObservableValue<String> error,
                           I18n i18n) {
        this.facts = facts;
        this.error = error;
        this.i18n = i18n;
        getStyleClass().add("iommu-view");
        setPadding(new Insets(12));
        setSpacing(10);
        Label state = new Label();
        state.setId("iommu-state");
        state.setWrapText(true);
        state.textProperty().bind(Bindings.createStringBinding(this::stateText, facts, error, i18n.localeProperty()));
        ProgressIndicator busy = new ProgressIndicator();
        busy.setPrefSize(18, 18);
        busy.visibleProperty().bind(Bindings.createBooleanBinding(() -> Boolean.TRUE.equals(loading.getValue()), loading));
        HBox header = new HBox(10, state, busy);
        Label legend = new Label();
        legend.textProperty().bind(i18n.text("iommu.legend"));
        legend.getStyleClass().add("text-muted");
        legend.setWrapText(true);
        legend.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);

        table.setId("iommu-table");
        table.setShowRoot(false);
        table.setColumnResizePolicy(TreeTableView.CONSTRAINED_RESIZE_POLICY);
        table.getColumns().setAll(List.of(
                column("iommu.column.device", 170, r -> r.device().isEmpty()
                        ? i18n.get("iommu.group", r.group()) : r.device().get().address().toString()),
                column("iommu.column.class", 60, r -> r.device().map(d -> nz(d.classCode())).orElse("")),
                column("iommu.column.ids", 90, r -> r.device().map(d -> d.vendorId() == null ? "" : d.vendorId() + ":"
                        + d.deviceId()).orElse("")),
                column("iommu.column.name", 380, r -> r.device().isEmpty() ? r.summary()
                        : r.device().get().name().orElse("")),
                column("iommu.column.driver", 110, r -> r.device().flatMap(PciDevice::driver).orElse(""))));
        table.setRowFactory(t -> new TreeTableRow<>() {
            @Override
            protected void updateItem(Row row, boolean empty) {
                super.updateItem(row, empty);
                getStyleClass().removeAll("iso-isolated", "iso-bridges", "iso-shared", "group-row");
                if (!empty && row != null) {
                    row.isolation().ifPresent(i -> getStyleClass().add(styleOf(i)));
                    if (row.device().isEmpty()) {
                        getStyleClass().add("group-row");
                    }
                }
            }
        });
        Label empty = new Label();
        empty.textProperty().bind(i18n.text("iommu.empty"));
        table.setPlaceholder(empty);
        VBox.setVgrow(table, Priority.ALWAYS);
        getChildren().setAll(header, legend, table);
        facts.addListener((o, a, f) -> fill(f));
        i18n.localeProperty().addListener((o, a, b) -> fill(facts.getValue()));
        fill(facts.getValue());
    }

    public static String styleOf(Isolation i) {
        switch (i) {
            case ISOLATED:
                return "iso-isolated";
            case SHARES_WITH_BRIDGES:
                return "iso-bridges";
            default:
                return "iso-shared";
        }
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private TreeTableColumn<Row, String> column(String key, double width, java.util.function.Function<Row, String> f) {
        TreeTableColumn<Row, String> c = new TreeTableColumn<>();
        c.textProperty().bind(i18n.text(key));
        c.setPrefWidth(width);
        c.setCellValueFactory(p -> new ReadOnlyStringWrapper(p.getValue().getValue() == null ? ""
                : f.apply(p.getValue().getValue())));
        return c;
    }

    private String stateText() {
        String err = error.getValue();
        if (err != null) {
            return i18n.get("iommu.error", err);
        }
        HostFacts f = facts.getValue();
        if (f == null) {
            return i18n.get("iommu.loading");
        }
        String reason = i18n.get("iommu.reason." + f.iommuReason().name().toLowerCase(Locale.ROOT));
        return i18n.get("iommu.state", f.pci().groups().size(), f.pci().gpus().size(), reason);
    }

    private void fill(HostFacts f) {
        TreeItem<Row> root = new TreeItem<>(new Row(-1, Optional.empty(), Optional.empty(), ""));
        if (f != null) {
            Map<PciAddress, GpuPlacement> byFunction = new HashMap<>();
            Map<Integer, GpuPlacement> byGroup = new HashMap<>();
            for (GpuPlacement p : f.pci().gpus()) {
                p.functions().forEach(a -> byFunction.put(a, p));
                byGroup.merge(p.group(), p, (x, y) -> x.isolation().compareTo(y.isolation()) >= 0 ? x : y);
            }
            for (IommuGroup g : f.pci().groups()) {
                GpuPlacement gp = byGroup.get(g.id());
                String summary = gp == null ? i18n.get("iommu.group.devices", g.members().size())
                        : i18n.get("iommu.group.gpu." + styleOf(gp.isolation()));
                TreeItem<Row> gi = new TreeItem<>(new Row(g.id(), Optional.empty(),
                        Optional.ofNullable(gp).map(GpuPlacement::isolation), summary));
                for (PciAddress a : g.members()) {
                    f.pci().device(a).ifPresent(d -> gi.getChildren().add(new TreeItem<>(new Row(g.id(), Optional.of(d),
                            Optional.ofNullable(byFunction.get(a)).or(() -> Optional.ofNullable(gp))
                                    .map(GpuPlacement::isolation), ""))));
                }
                // GPUs are what this view is for: their groups open, the others folded
                gi.setExpanded(gp != null);
                root.getChildren().add(gi);
            }
        }
        table.setRoot(root);
    }

    TreeTableView<Row> table() {
        return table;
    }
}
