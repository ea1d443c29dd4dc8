package io.gpuforge.ui.vmcreate;

import io.gpuforge.app.vmcreate.VmProvisioning;
import io.gpuforge.domain.vm.VmField;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.TextCells;
import io.gpuforge.ui.common.UiContext;
import java.util.List;
import java.util.Optional;
import javafx.beans.binding.Bindings;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.layout.VBox;

/**
 * The wizard's source page: a GPUForge template, or a template VM of the node to clone (Proxmox VE; a full copy
 * onto the storage picked later, or a linked clone on the template's storage). A backend that cannot clone says so
 * here (its declared capabilities), and template VMs of other nodes are named with the hint to pick that node.
 */
final class SourcePage {

    private final UiContext ui;
    private final VmCreateServices services;
    private final I18n i18n;
    private final CreateVmWizardModel model;
    private final CreateVmWizard wizard;
    private final CreateVmWizardPages pages;
    private final ObservableList<VmInfo> clones = FXCollections.observableArrayList();

    SourcePage(UiContext ui, VmCreateServices services, CreateVmWizardModel model, CreateVmWizard wizard,
               CreateVmWizardPages pages) {
        this.ui = ui;
        this.services = services;
        this.i18n = ui.i18n();
        this.model = model;
        this.wizard = wizard;
        this.pages = pages;
    }

    Node page() {
        ListView<VmTemplate> list = new ListView<>(wizard.templates);
        list.setId("vmc-templates");
        list.setPrefHeight(230);
        list.setCellFactory(TextCells.of(t -> t.name() + "   " + (t.builtIn() ? i18n.get("vmcreate.template.builtIn")
                        : i18n.get("vmcreate.template.user")) + "   " + i18n.get("vmcreate.template.size", t.cores(),
                        t.memoryMiB() / 1024.0, t.diskGiB(), t.gpus())));
        ListView<VmInfo> cloneList = new ListView<>(clones);
        cloneList.setId("vmc-clone-list");
        cloneList.setPrefHeight(90);
        cloneList.setCellFactory(TextCells.of(v -> i18n.get("vmcreate.template.cloneItem", v.ref().id(), v.name(),
                        v.vcpus(), v.memoryBytes() / (double) (1L << 30))));
        model.template.addListener((o, a, t) -> {
            if (model.cloneSource.get() != null || t == null) {
                list.getSelectionModel().clearSelection();
            } else if (t != list.getSelectionModel().getSelectedItem()) {
                list.getSelectionModel().select(t);
            }
        });
        model.cloneSource.addListener((o, a, c) -> {
            if (c == null) {
                cloneList.getSelectionModel().clearSelection();
            }
        });
        list.getSelectionModel().selectedItemProperty().addListener((o, a, t) -> {
            if (t != null && (t != model.template.get() || model.cloneSource.get() != null)) {
                model.apply(t);
            }
        });
        cloneList.getSelectionModel().selectedItemProperty().addListener((o, a, v) -> {
            if (v != null && (model.cloneSource.get() == null || !model.cloneSource.get().source().equals(v))) {
                chooseClone(v);
            }
        });
        list.getSelectionModel().select(model.template.get());
        Label description = new Label();
        description.setId("vmc-template-description");
        description.setWrapText(true);
        description.textProperty().bind(Bindings.createStringBinding(() -> model.template.get() == null ? ""
                : TemplateWords.description(i18n, model.template.get()), model.template));
        Button manage = new Button(i18n.get("vmcreate.template.manage"));
        manage.setId("vmc-manage-templates");
        manage.setOnAction(e -> TemplateManager.open(ui, services, wizard.stage(), wizard::reloadTemplates));
        Label heading = new Label(i18n.get("vmcreate.template.cloneHeading"));
        heading.getStyleClass().add("text-bold");
        CheckBox linked = new CheckBox(i18n.get("vmcreate.template.linked"));
        linked.setId("vmc-linked");
        linked.setWrapText(true);
        linked.selectedProperty().bindBidirectional(model.linked);
        linked.disableProperty().bind(model.cloneSource.isNull());
        Label note = new Label();
        note.setId("vmc-clone-sources");
        note.setWrapText(true);
        note.getStyleClass().add("text-muted");
        Runnable fill = () -> {
            VmProvisioning.Choices c = model.choices.get();
            String node = model.node.get();
            List<VmInfo> here = c == null || !c.canClone() ? List.of() : c.cloneSourcesOn(node);
            clones.setAll(here);
            note.setText(cloneNote(c, node));
        };
        model.choices.addListener(o -> fill.run());
        fill.run();
        VBox cloneBox = new VBox(6, heading, cloneList, linked);
        cloneBox.visibleProperty().bind(Bindings.isNotEmpty(clones));
        cloneBox.managedProperty().bind(cloneBox.visibleProperty());
        return new VBox(10, list, description, manage, cloneBox, note, pages.message(VmField.SOURCE));
    }

    private String cloneNote(VmProvisioning.Choices c, String node) {
        if (c == null) {
            return "";
        }
        if (!c.canClone()) {
            return i18n.get("vmcreate.template.cloneUnsupported");
        }
        List<VmInfo> elsewhere = c.cloneSources().stream().filter(v -> !v.ref().node().equals(node)).toList();
        if (elsewhere.isEmpty()) {
            return c.cloneSourcesOn(node).isEmpty() ? i18n.get("vmcreate.template.cloneNone") : "";
        }
        return i18n.get("vmcreate.template.cloneElsewhere", String.join(", ", elsewhere.stream()
                .map(v -> v.ref().id() + " " + v.name() + " (" + v.ref().node() + ")").toList()));
    }

    /** Reads the template VM (its disk's storage, its shape) in the background, then makes it the source. */
    private void chooseClone(VmInfo v) {
        Optional<VmProvisioning.Target> t = model.target();
        if (t.isEmpty()) {
            return;
        }
        ui.tasks().supply("vmcreate-clone-source", () -> {
            VmProvisioning.Clone c = services.provisioning().cloneSource(t.get(), v);
            VmTemplate shape = services.templates().describe(services.provisioning().session(t.get())
                    .readConfig(v.ref()), v.name());
            return new Object[] {c, shape};
        }).onSuccess(r -> {
            if (t.equals(model.target())) {
                model.applyClone((VmProvisioning.Clone) r[0], (VmTemplate) r[1]);
            }
        }).onError(e -> pages.loadFailed(e.getMessage() == null ? e.toString() : e.getMessage())).start();
    }
}
