package io.gpuforge.ui.vmcreate;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.testing.GuiWindow;
import javafx.scene.control.ChoiceBox;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.VmTemplate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.DialogPane;
import javafx.scene.control.ListView;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.framework.junit5.Start;

/**
 * The template manager reached from the wizard's template page: built-in templates read-only, a duplicate edited,
 * exported, deleted and imported again; the wizard lists it. Plus the dark, Chinese look of the wizard.
 */
@Tag("ui")
class TemplateManagerGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private Stage stage;
    private WizardFixture fx;

    @Start
    void start(Stage s) {
        stage = s;
    }

    private CreateVmWizard openOnDemo(ThemeChoice theme, LanguageChoice language) throws Exception {
        fx = WINDOW.closing(new WizardFixture(theme, language));
        ConnectionInfo demo = fx.app.connections().addDemo("Demo lab");
        fx.show(stage);
        CreateVmWizard w = fx.open(Optional.of(CreateVmWizard.Preselection.node(demo, "pve-4090")), stage);
        WizardFixture.waitFor(30, () -> w.model().choices.get() != null);
        fx.settle();
        return w;
    }

    @SuppressWarnings("unchecked")
    private ListView<VmTemplate> list(String id) {
        return fx.find(id, ListView.class);
    }

    private void select(ListView<VmTemplate> l, String name) {
        fx.robot.interact(() -> l.getSelectionModel().select(l.getItems().stream().filter(t -> t.name().equals(name))
                .findFirst().orElseThrow()));
    }

    private TemplateManager openManager(CreateVmWizard w) throws Exception {
        fx.fire("#vmc-next");
        AtomicReference<TemplateManager> m = new AtomicReference<>();
        fx.robot.interact(() -> m.set(TemplateManager.open(fx.ui, VmCreateServices.of(fx.app), w.stage(), w::reloadTemplates)));
        WizardFixture.waitFor(20, () -> !list("#tm-list").getItems().isEmpty());
        fx.settle();
        return m.get();
    }

    @Test
    void aDuplicateOfABuiltInTemplateIsEditedExportedDeletedImportedAndOfferedByTheWizard(@TempDir Path dir)
            throws Exception {
        CreateVmWizard w = openOnDemo(ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        fx.fire("#vmc-next");
        fx.fire("#vmc-manage-templates");
        WizardFixture.waitFor(20, () -> fx.robot.lookup("#tm-list").tryQuery().isPresent()
                && !list("#tm-list").getItems().isEmpty());
        fx.settle();
        ListView<VmTemplate> templates = list("#tm-list");
        assertThat(templates.getItems()).extracting(VmTemplate::id).startsWith("ubuntu-cuda", "inference-node",
                "windows11-gpu", "k8s-gpu-worker", "slurm-gpu-worker");
        select(templates, "Ubuntu 24.04 CUDA workstation");
        assertThat(fx.find("#tm-save", Button.class).isDisabled()).as("built-in templates are read-only").isTrue();
        assertThat(fx.find("#tm-delete", Button.class).isDisabled()).isTrue();

        fx.fire("#tm-duplicate");
        WizardFixture.waitFor(20, () -> fx.text("#tm-message").startsWith("Saved"));
        fx.settle();
        assertThat(templates.getSelectionModel().getSelectedItem().name()).isEqualTo("Ubuntu 24.04 CUDA workstation copy");
        assertThat(fx.find("#tm-save", Button.class).isDisabled()).isFalse();
        fx.robot.interact(() -> {
            fx.find("#tm-name", TextField.class).setText("CUDA small");
            fx.find("#tm-cores", Spinner.class).getValueFactory().setValue(4);
            fx.find("#tm-memory", Spinner.class).getValueFactory().setValue(8192);
        });
        fx.fire("#tm-save");
        WizardFixture.waitFor(20, () -> fx.text("#tm-message").equals("Saved CUDA small"));
        VmTemplate saved = fx.app.templates().find("CUDA small").orElseThrow();
        assertThat(saved.builtIn()).isFalse();
        assertThat(saved.cores()).isEqualTo(4);
        assertThat(saved.memoryMiB()).isEqualTo(8192);
        assertThat(saved.userData()).isEqualTo(fx.app.templates().find("ubuntu-cuda").orElseThrow().userData());
        fx.settle();
        WizardFixture.writePng(fx.find("#template-manager", Node.class).getScene(), "vmcreate-templates-light-en.png");

        Path file = dir.resolve("mine.json");
        TemplateManager manager = managerOf(templates);
        fx.robot.interact(() -> manager.exportTo(file));
        WizardFixture.waitFor(20, () -> fx.text("#tm-message").startsWith("Exported 1 template to"));
        assertThat(Files.readString(file)).contains("\"format\" : \"gpuforge-vm-templates\"", "CUDA small");

        select(templates, "CUDA small");
        Platform.runLater(() -> fx.find("#tm-delete", Button.class).fire());
        WizardFixture.waitFor(20, () -> fx.robot.lookup(".dialog-pane").tryQuery().isPresent());
        DialogPane confirm = fx.find(".dialog-pane", DialogPane.class);
        assertThat(confirm.getContentText()).contains("CUDA small");
        fx.robot.interact(() -> confirm.getButtonTypes().stream()
                .filter(b -> b.getButtonData() == ButtonBar.ButtonData.OK_DONE).findFirst()
                .map(b -> (Button) confirm.lookupButton(b)).orElseThrow().fire());
        WizardFixture.waitFor(20, () -> fx.text("#tm-message").equals("Deleted CUDA small"));
        assertThat(fx.app.templates().find("CUDA small")).isEmpty();

        fx.robot.interact(() -> manager.importFrom(file));
        WizardFixture.waitFor(20, () -> fx.text("#tm-message").startsWith("Imported 1 template from"));
        assertThat(fx.app.templates().find("CUDA small")).isPresent();

        fx.robot.interact(() -> manager.stage().close());
        WizardFixture.waitFor(20, () -> list("#vmc-templates").getItems().stream()
                .anyMatch(t -> t.name().equals("CUDA small")));
        select(list("#vmc-templates"), "CUDA small");
        assertThat(w.model().cores.get()).isEqualTo(4);
        assertThat(w.model().memoryMiB.get()).isEqualTo(8192);
    }

    @Test
    void aTemplateIsMadeFromAnExistingVmReadInTheBackgroundAndEditedBeforeItIsSaved() throws Exception {
        CreateVmWizard w = openOnDemo(ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        openManager(w);
        fx.fire("#tm-from-vm");
        @SuppressWarnings("unchecked")
        ChoiceBox<ConnectionInfo> connection = fx.find("#tm-vm-connection", ChoiceBox.class);
        fx.robot.interact(() -> connection.getSelectionModel().select(connection.getItems().stream()
                .filter(c -> c.name().equals("Demo lab")).findFirst().orElseThrow()));
        @SuppressWarnings("unchecked")
        ChoiceBox<VmInfo> vm = fx.find("#tm-vm", ChoiceBox.class);
        WizardFixture.waitFor(30, () -> vm.getItems().stream().anyMatch(v -> v.name().equals("train-01")));
        fx.robot.interact(() -> vm.getSelectionModel().select(vm.getItems().stream()
                .filter(v -> v.name().equals("train-01")).findFirst().orElseThrow()));
        fx.fire("#tm-vm-read");
        WizardFixture.waitFor(30, () -> fx.find("#tm-name", TextField.class).getText().equals("train-01"));
        fx.settle();
        assertThat(fx.find("#tm-cores", Spinner.class).getValue()).isEqualTo(16);
        assertThat(fx.find("#tm-memory", Spinner.class).getValue()).isEqualTo(65536);
        assertThat(fx.find("#tm-disk", Spinner.class).getValue()).isEqualTo(200);
        assertThat(fx.find("#tm-description", TextArea.class).getText()).contains("Made from VM 101 on pve-4090");
        assertThat(fx.find("#tm-save", Button.class).isDisabled()).isFalse();
        assertThat(fx.app.templates().find("train-01")).as("nothing is saved before Save").isEmpty();
        WizardFixture.writePng(fx.find("#template-manager", Node.class).getScene(), "vmcreate-templates-from-vm-light-en.png");
        fx.robot.interact(() -> {
            fx.find("#tm-name", TextField.class).setText("Training box");
            fx.find("#tm-memory", Spinner.class).getValueFactory().setValue(32768);
        });
        fx.fire("#tm-save");
        WizardFixture.waitFor(20, () -> fx.text("#tm-message").equals("Saved Training box"));
        VmTemplate saved = fx.app.templates().find("Training box").orElseThrow();
        assertThat(saved.cores()).isEqualTo(16);
        assertThat(saved.memoryMiB()).isEqualTo(32768);
        assertThat(saved.gpus()).as("train-01 holds one GPU").isEqualTo(1);
        assertThat(saved.uefi()).isTrue();
        fx.settle();
        assertThat(list("#tm-list").getItems()).extracting(VmTemplate::name).contains("Training box");
    }

    @Test
    void aBrokenTemplateFileIsRefusedNamingTheField(@TempDir Path dir) throws Exception {
        CreateVmWizard w = openOnDemo(ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        TemplateManager manager = openManager(w);
        Path file = dir.resolve("broken.json");
        Files.writeString(file, "{\"format\": \"gpuforge-vm-templates\", \"version\": 2, \"templates\": [{\"id\": \"x\","
                + " \"name\": \"X\", \"os\": \"linux\", \"cores\": 0, \"memoryMiB\": 1024, \"diskGiB\": 10}]}");
        int before = list("#tm-list").getItems().size();
        fx.robot.interact(() -> manager.importFrom(file));
        WizardFixture.waitFor(20, () -> !fx.text("#tm-message").isEmpty());
        assertThat(fx.text("#tm-message")).startsWith("templates[0].uefi:");
        assertThat(fx.find("#tm-message", Node.class).getStyleClass()).contains("danger");
        assertThat(fx.app.templates().all()).hasSize(before);
    }

    @Test
    void theWizardInDarkChinese() throws Exception {
        CreateVmWizard w = openOnDemo(ThemeChoice.DARK, LanguageChoice.CHINESE_SIMPLIFIED);
        assertThat(fx.text("#vmc-title")).isEqualTo("目标");
        WizardFixture.writePng(w.stage().getScene(), "vmcreate-1-target-dark-zh.png");
        fx.fire("#vmc-next");
        select(list("#vmc-templates"), "Ubuntu 24.04 CUDA workstation");
        WizardFixture.writePng(w.stage().getScene(), "vmcreate-2-template-dark-zh.png");
        fx.fire("#vmc-next");
        fx.fire("#vmc-next");
        fx.robot.interact(() -> fx.find("#vmc-memory", Spinner.class).getValueFactory().setValue(200 * 1024));
        WizardFixture.writePng(w.stage().getScene(), "vmcreate-4-resources-dark-zh.png");
        fx.robot.interact(() -> fx.find("#vmc-memory", Spinner.class).getValueFactory().setValue(8192));
        fx.fire("#vmc-next");
        fx.fire("#vmc-next");
        fx.robot.interact(() -> fx.find("#vmc-sshkeys", TextArea.class).setText("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA"
                + "IF9nUH9yZ2UtdGVzdC1rZXktMDAwMDAwMDAwMDAw alice@laptop"));
        fx.fire("#vmc-next");
        fx.fire("#vmc-next");
        assertThat(w.current()).isEqualTo(CreateVmWizardModel.Step.SUMMARY);
        assertThat(fx.find("#vmc-summary", TextArea.class).getText()).contains("模板：Ubuntu 24.04 CUDA workstation");
        WizardFixture.writePng(w.stage().getScene(), "vmcreate-8-summary-dark-zh.png");
        fx.robot.interact(() -> TemplateManager.open(fx.ui, VmCreateServices.of(fx.app), w.stage(), () -> { }));
        WizardFixture.waitFor(20, () -> !list("#tm-list").getItems().isEmpty());
        fx.settle();
        WizardFixture.writePng(fx.find("#template-manager", Node.class).getScene(), "vmcreate-templates-dark-zh.png");
    }

    private static TemplateManager managerOf(ListView<VmTemplate> list) {
        Window window = list.getScene().getWindow();
        return (TemplateManager) window.getProperties().get(TemplateManager.class);
    }
}
