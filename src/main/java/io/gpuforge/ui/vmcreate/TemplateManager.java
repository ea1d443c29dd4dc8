package io.gpuforge.ui.vmcreate;

import io.gpuforge.bounded.BoundedStreams;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.TextCells;
import io.gpuforge.ui.common.UiContext;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The user's templates beside the built-in ones: edit a user template's name, description and size, duplicate
 * any (a built-in one's copy is editable), delete, and import or export the versioned template file. Built-in
 * templates are shown read-only.
 */
final class TemplateManager {

    private final UiContext ui;
    private final VmCreateServices services;
    private final I18n i18n;
    private final Stage stage = new Stage();
    private final ObservableList<VmTemplate> items = FXCollections.observableArrayList();
    private final ListView<VmTemplate> list = new ListView<>(items);
    private final TextField name = new TextField();
    private final TextArea description = new TextArea();
    private final Spinner<Integer> cores = new Spinner<>(1, 512, 1);
    private final Spinner<Integer> memory = new Spinner<>(64, 16 * 1024 * 1024, 1024, 1024);
    private final Spinner<Integer> disk = new Spinner<>(1, 65_536, 32, 8);
    private final Label message = new Label();
    private final Button save = new Button();
    private final Button delete = new Button();
    private final FromVmPane fromVm;
    /** A template read from a VM, in the editor and not saved yet; null: the editor shows the list's selection. */
    private VmTemplate draft;

    private TemplateManager(UiContext ui, VmCreateServices services, Window owner, Runnable closed) {
        this.ui = ui;
        this.services = services;
        this.i18n = ui.i18n();
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.setTitle(i18n.get("vmcreate.templates.title"));
        list.setId("tm-list");
        list.setPrefWidth(300);
        list.setCellFactory(TextCells.of(t -> t.name() + (t.builtIn() ? "  (" + i18n.get("vmcreate.template.builtIn")
                        + ")" : "")));
        list.getSelectionModel().selectedItemProperty().addListener((o, a, t) -> {
            if (t != null) {
                draft = null;
            }
            show(t);
        });
        fromVm = new FromVmPane(ui, services, this::edit);
        name.setId("tm-name");
        description.setId("tm-description");
        description.setPrefRowCount(3);
        description.setWrapText(true);
        cores.setId("tm-cores");
        memory.setId("tm-memory");
        disk.setId("tm-disk");
        for (Spinner<Integer> s : List.of(cores, memory, disk)) {
            s.setEditable(true);
        }
        message.setId("tm-message");
        message.setWrapText(true);
        save.setId("tm-save");
        save.setText(i18n.get("vmcreate.templates.save"));
        save.setOnAction(e -> saveSelected());
        delete.setId("tm-delete");
        delete.setText(i18n.get("vmcreate.templates.delete"));
        delete.setOnAction(e -> deleteSelected());
        Button duplicate = new Button(i18n.get("vmcreate.templates.duplicate"));
        duplicate.setId("tm-duplicate");
        duplicate.setOnAction(e -> duplicateSelected());
        Button importButton = new Button(i18n.get("vmcreate.templates.import"));
        importButton.setId("tm-import");
        importButton.setOnAction(e -> chooseImport());
        Button fromVmButton = new Button(i18n.get("vmcreate.templates.fromVm"));
        fromVmButton.setId("tm-from-vm");
        fromVmButton.setOnAction(e -> fromVm.open());
        Button export = new Button(i18n.get("vmcreate.templates.export"));
        export.setId("tm-export");
        export.setOnAction(e -> chooseExport());
        GridPane form = CreateVmWizardPages.grid();
        form.addRow(0, new Label(i18n.get("vmcreate.templates.name")), name);
        form.addRow(1, new Label(i18n.get("vmcreate.templates.description")), description);
        form.addRow(2, new Label(i18n.get("vmcreate.resources.cores")), cores);
        form.addRow(3, new Label(i18n.get("vmcreate.resources.memory")), memory);
        form.addRow(4, new Label(i18n.get("vmcreate.resources.disk")), disk);
        VBox right = new VBox(12, form, new HBox(10, save, duplicate, delete), message, fromVm);
        right.setPadding(new Insets(0, 0, 0, 16));
        BorderPane root = new BorderPane(right);
        root.setId("template-manager");
        root.setLeft(list);
        root.setBottom(new HBox(10, importButton, export, fromVmButton));
        BorderPane.setMargin(root.getBottom(), new Insets(12, 0, 0, 0));
        root.setPadding(new Insets(16));
        Scene scene = new Scene(root, 860, 560);
        ui.theme().style(scene);
        stage.setScene(scene);
        stage.setOnHidden(e -> closed.run());
        stage.getProperties().put(TemplateManager.class, this);
        reload(Optional.empty());
    }

    /** Opens the template manager; {@code closed} runs when it is closed (the wizard reloads its list). */
    static TemplateManager open(UiContext ui, VmCreateServices services, Window owner, Runnable closed) {
        TemplateManager m = new TemplateManager(ui, services, owner, closed);
        m.stage.show();
        return m;
    }

    Stage stage() {
        return stage;
    }

    /** Puts a template read from a VM into the editor, unsaved: Save adds it to the user's templates. */
    private void edit(VmTemplate t) {
        list.getSelectionModel().clearSelection();
        draft = t;
        show(t);
        delete.setDisable(true);
        done(i18n.get("vmcreate.templates.fromVm.edit", t.name()));
    }

    private void show(VmTemplate t) {
        boolean editable = t != null && !t.builtIn();
        for (Node n : List.of(name, description, cores, memory, disk, save, delete)) {
            n.setDisable(!editable);
        }
        if (t == null) {
            return;
        }
        name.setText(t.name());
        description.setText(t.description());
        cores.getValueFactory().setValue(t.cores());
        memory.getValueFactory().setValue(t.memoryMiB());
        disk.getValueFactory().setValue(t.diskGiB());
    }

    private void reload(Optional<String> select) {
        ui.tasks().supply("templates-load", () -> services.templates().all()).onSuccess(all -> {
            items.setAll(all);
            select.flatMap(id -> all.stream().filter(t -> t.id().equals(id)).findFirst())
                    .ifPresentOrElse(t -> list.getSelectionModel().select(t), () -> list.getSelectionModel().selectFirst());
        }).onError(this::failed).start();
    }

    private void failed(Throwable e) {
        message.getStyleClass().setAll("label", "danger");
        message.setText(e.getMessage() == null ? e.toString() : e.getMessage());
    }

    private void done(String text) {
        message.getStyleClass().setAll("label");
        message.setText(text);
    }

    private void saveSelected() {
        VmTemplate t = draft != null ? draft : list.getSelectionModel().getSelectedItem();
        if (t == null || t.builtIn()) {
            return;
        }
        VmTemplate edited;
        try {
            edited = new VmTemplate(t.id(), name.getText().strip(), description.getText(), false, t.os(),
                    cores.getValue(), memory.getValue(), disk.getValue(), t.uefi(), t.tpm(), t.cpuType(), t.osType(),
                    t.gpus(), t.agent(), t.image(), t.userData(), t.isos(), t.variables());
        } catch (IllegalArgumentException e) {
            failed(e);
            return;
        }
        ui.tasks().supply("templates-save", () -> services.templates().save(edited)).onSuccess(s -> {
            draft = null;
            done(i18n.get("vmcreate.templates.saved", s.name()));
            reload(Optional.of(s.id()));
        }).onError(this::failed).start();
    }

    private void duplicateSelected() {
        VmTemplate t = list.getSelectionModel().getSelectedItem();
        if (t == null) {
            return;
        }
        String copyName = i18n.get("vmcreate.templates.copyName", t.name());
        ui.tasks().supply("templates-duplicate", () -> services.templates().duplicate(t.id(), copyName)).onSuccess(c -> {
            done(i18n.get("vmcreate.templates.saved", c.name()));
            reload(Optional.of(c.id()));
        }).onError(this::failed).start();
    }

    private void deleteSelected() {
        VmTemplate t = list.getSelectionModel().getSelectedItem();
        if (t == null || t.builtIn() || !ui.dialogs().confirm("vmcreate.templates.deleteTitle",
                i18n.get("vmcreate.templates.deleteConfirm", t.name()))) {
            return;
        }
        ui.tasks().supply("templates-delete", () -> {
            services.templates().delete(t.id());
            return t;
        }).onSuccess(d -> {
            done(i18n.get("vmcreate.templates.deleted", d.name()));
            reload(Optional.empty());
        }).onError(this::failed).start();
    }

    private FileChooser chooser() {
        FileChooser c = new FileChooser();
        c.getExtensionFilters().add(new FileChooser.ExtensionFilter(i18n.get("vmcreate.templates.fileKind"), "*.json"));
        return c;
    }

    private void chooseImport() {
        File f = chooser().showOpenDialog(stage);
        if (f != null) {
            importFrom(f.toPath());
        }
    }

    private void chooseExport() {
        FileChooser c = chooser();
        c.setInitialFileName("gpuforge-templates.json");
        File f = c.showSaveDialog(stage);
        if (f != null) {
            exportTo(f.toPath());
        }
    }

    /** Imports a template file (what the Import button does once a file is chosen). */
    void importFrom(Path file) {
        ui.tasks().supply("templates-import", () -> services.templates().importJson(BoundedStreams.readString(file,
                16 << 20))).onSuccess(r -> {
                    done(i18n.get("vmcreate.templates.imported", r.added().size(), file.getFileName(),
                            String.join(", ", r.renamed())));
                    reload(r.added().stream().findFirst().map(VmTemplate::id));
                }).onError(this::failed).start();
    }

    /** Exports the user's templates, or the selected one when there are none (what Export does). */
    void exportTo(Path file) {
        VmTemplate chosen = list.getSelectionModel().getSelectedItem();
        List<String> ids = items.stream().filter(t -> !t.builtIn()).map(VmTemplate::id).toList();
        List<String> which = ids.isEmpty() && chosen != null ? List.of(chosen.id()) : ids;
        ui.tasks().supply("templates-export", () -> {
            Files.writeString(file, services.templates().export(which), StandardCharsets.UTF_8);
            return which.size();
        }).onSuccess(n -> done(i18n.get("vmcreate.templates.exported", n, file.getFileName())))
                .onError(this::failed).start();
    }
}
