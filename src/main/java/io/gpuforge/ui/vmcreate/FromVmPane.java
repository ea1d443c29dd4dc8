package io.gpuforge.ui.vmcreate;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.TextCells;
import io.gpuforge.ui.common.UiContext;
import java.util.function.Consumer;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/**
 * The template manager's "From an existing VM": a hypervisor connection and one of its VMs; its configuration is read
 * in the background and handed on as an unsaved template ({@code TemplateService.describe}) for the editor.
 */
final class FromVmPane extends VBox {

    private final UiContext ui;
    private final VmCreateServices services;
    private final I18n i18n;
    private final ObservableList<ConnectionInfo> connections = FXCollections.observableArrayList();
    private final ObservableList<VmInfo> vms = FXCollections.observableArrayList();
    private final ChoiceBox<ConnectionInfo> connection = new ChoiceBox<>(connections);
    private final ChoiceBox<VmInfo> vm = new ChoiceBox<>(vms);
    private final Label status = new Label();

    FromVmPane(UiContext ui, VmCreateServices services, Consumer<VmTemplate> read) {
        super(8);
        this.ui = ui;
        this.services = services;
        this.i18n = ui.i18n();
        setId("tm-from-vm-pane");
        connection.setId("tm-vm-connection");
        connection.setConverter(TextCells.converter(c -> c.name() + " (" + c.address() + ")"));
        vm.setId("tm-vm");
        vm.setConverter(TextCells.converter(v -> v.ref().id() + " " + v.name() + " (" + v.ref().node() + ")"));
        status.setId("tm-vm-status");
        status.setWrapText(true);
        Button readButton = new Button(i18n.get("vmcreate.templates.fromVm.read"));
        readButton.setId("tm-vm-read");
        readButton.disableProperty().bind(vm.valueProperty().isNull());
        readButton.setOnAction(e -> read(read));
        connection.valueProperty().addListener((o, a, c) -> loadVms(c));
        GridPane g = CreateVmWizardPages.grid();
        g.addRow(0, new Label(i18n.get("vmcreate.target.connection")), connection);
        g.addRow(1, new Label(i18n.get("vmcreate.templates.fromVm.vm")), new HBox(10, vm, readButton));
        Label title = new Label(i18n.get("vmcreate.templates.fromVm.title"));
        title.setWrapText(true);
        title.getStyleClass().add("text-bold");
        getChildren().setAll(title, g, status);
        setVisible(false);
        managedProperty().bind(visibleProperty());
    }

    /** Shows the pane and reads the saved hypervisor connections. */
    void open() {
        setVisible(true);
        ui.tasks().supply("templates-from-vm-connections", () -> services.connections().all().stream()
                .filter(c -> services.sessions().isHypervisor(c.kind())).toList()).onSuccess(all -> {
                    connections.setAll(all);
                    if (all.size() == 1) {
                        connection.setValue(all.get(0));
                    }
                }).onError(this::failed).start();
    }

    private void loadVms(ConnectionInfo c) {
        vms.clear();
        if (c == null) {
            return;
        }
        status.setText(i18n.get("vmcreate.templates.fromVm.reading", c.name()));
        ui.tasks().supply("templates-from-vm-list", () -> services.sessions().of(c).inventory().vms()).onSuccess(all -> {
            if (c.equals(connection.getValue())) {
                vms.setAll(all);
                status.setText(all.isEmpty() ? i18n.get("vmcreate.templates.fromVm.none", c.name()) : "");
            }
        }).onError(this::failed).start();
    }

    private void read(Consumer<VmTemplate> then) {
        ConnectionInfo c = connection.getValue();
        VmInfo v = vm.getValue();
        if (c == null || v == null) {
            return;
        }
        status.getStyleClass().remove("danger");
        status.setText(i18n.get("vmcreate.templates.fromVm.readingVm", v.name()));
        ui.tasks().supply("templates-from-vm-read", () -> services.templates().describe(services.sessions().of(c)
                .readConfig(v.ref()), v.name())).onSuccess(t -> {
                    status.setText(i18n.get("vmcreate.templates.fromVm.done", v.name()));
                    then.accept(t);
                }).onError(this::failed).start();
    }

    private void failed(Throwable e) {
        if (!status.getStyleClass().contains("danger")) {
            status.getStyleClass().add("danger");
        }
        status.setText(i18n.get("vmcreate.templates.fromVm.failed", e.getMessage() == null ? e.toString()
                : e.getMessage()));
    }
}
