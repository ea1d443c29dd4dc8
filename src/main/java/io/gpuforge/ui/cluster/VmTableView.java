package io.gpuforge.ui.cluster;

import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.ViewScope;
import java.util.List;
import java.util.function.Function;
import javafx.beans.value.ObservableValue;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/** The VMs of a hypervisor connection: state, vCPUs, memory, machine, firmware and passed-through devices. */
public final class VmTableView extends VBox implements Disposable {

    /** The columns from machine on hold a VM's details. */
    private static final int FIRST_DETAIL = 6;

    private final TableView<VmInfo> table = new TableView<>();
    private final List<TableColumn<VmInfo, String>> details;
    private final ViewScope scope = new ViewScope();
    /** Held strongly: a binding only weakly observes its source and would be collected with our listener. */
    private final ObservableValue<List<VmInfo>> domains;

    public VmTableView(ObservableValue<List<VmInfo>> domains, ObservableValue<String> header, I18n i18n) {
        this.domains = domains;
        setPadding(new Insets(12));
        setSpacing(10);
        Label title = new Label();
        title.setId("domains-header");
        scope.bind(title.textProperty(), header);
        title.setWrapText(true);
        title.setMinHeight(Region.USE_PREF_SIZE);
        table.setId("domains-table");
        List<TableColumn<VmInfo, String>> columns = List.of(
                col(i18n, "domains.column.id", 70, v -> v.ref().id()),
                // wide enough for "ubuntu-24.04-cloud (template)" and "196608 MiB" whole
                col(i18n, "domains.column.name", 250, v -> v.name() + (v.template() ? " " + i18n.get("domains.template") : "")),
                col(i18n, "domains.column.node", 110, v -> v.ref().node()),
                col(i18n, "domains.column.state", 90, v -> i18n.get("vm.state." + v.state().json())),
                col(i18n, "domains.column.vcpus", 72, v -> String.valueOf(v.vcpus())),
                col(i18n, "domains.column.memory", 112, v -> v.memoryBytes() / 1048576 + " MiB"),
                col(i18n, "domains.column.machine", 130, v -> v.details().flatMap(d -> d.machine()).orElse("")),
                col(i18n, "domains.column.firmware", 80, v -> v.details().map(d -> d.firmware().json()).orElse("")),
                col(i18n, "domains.column.disks", 220, v -> v.details().map(d -> String.join(", ", d.disks().stream()
                        .map(x -> (x.slot() + " " + x.source()).strip()).toList())).orElse("")),
                col(i18n, "domains.column.nics", 200, v -> v.details().map(d -> String.join(", ", d.nics().stream()
                        .map(x -> (x.model() + " " + x.mac() + " " + x.network()).strip()).toList())).orElse("")),
                col(i18n, "domains.column.devices", 260, v -> v.hostDevices().toString().replaceAll("[\\[\\]]", "")));
        table.getColumns().setAll(columns);
        details = columns.subList(FIRST_DETAIL, columns.size());
        Label empty = new Label();
        scope.bind(empty.textProperty(), i18n.text("domains.empty"));
        table.setPlaceholder(empty);
        VBox.setVgrow(table, Priority.ALWAYS);
        getChildren().setAll(title, table);
        scope.listen(domains, (o, a, list) -> show(list));
        show(domains.getValue());
    }

    /**
     * The VMs; a column of details (machine, firmware, disks, NICs, devices) shows only when some VM has them: a
     * Proxmox listing carries none (its VM page reads them), a libvirt one carries them all.
     */
    private void show(List<VmInfo> list) {
        List<VmInfo> vms = list == null ? List.of() : list;
        for (TableColumn<VmInfo, String> c : details) {
            c.setVisible(vms.stream().anyMatch(v -> !c.getCellObservableValue(v).getValue().isBlank()));
        }
        table.setItems(FXCollections.observableArrayList(vms));
    }

    private TableColumn<VmInfo, String> col(I18n i18n, String key, double width, Function<VmInfo, String> f) {
        return scope.textColumn(i18n, key, width, f);
    }

    @Override
    public void dispose() {
        scope.dispose();
    }
}
