package io.gpuforge.ui.vmcreate;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmState;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.common.NavItem;
import java.util.List;
import java.util.Optional;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.framework.junit5.Start;

/**
 * The VM creation wizard in the real window, opened through {@link CreateVmWizard#open} as the toolbar does: on
 * the Demo lab from template to a VM in the inventory, and against a simulator the test controls (a 400 shown on
 * its field, an id taken between nextid and the create, a cancelled create).
 */
@Tag("ui")
class CreateVmWizardGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private static final String KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIF9nUH9yZ2UtdGVzdC1rZXktMDAwMDAwMDAwMDAw alice@laptop";
    private Stage stage;
    private WizardFixture fx;
    private PveSimulator sim;

    @Start
    void start(Stage s) {
        stage = s;
    }

    private ConnectionInfo simulatorConnection() throws Exception {
        sim = WINDOW.closing(new PveSimulator(SimCluster.demo()));
        fx.app.secrets().createVault("a long passphrase".toCharArray());
        String token = sim.token();
        return fx.app.connections().addProxmox("lab-pve", sim.url(), token.substring(0, token.indexOf('=')),
                token.substring(token.indexOf('=') + 1).toCharArray(), Optional.of(sim.certificateFingerprint()));
    }

    private CreateVmWizard openOn(ConnectionInfo c, String node) throws Exception {
        CreateVmWizard w = fx.open(Optional.of(CreateVmWizard.Preselection.node(c, node)), stage);
        WizardFixture.waitFor(30, () -> fx.text("#vmc-target-status").contains("CPUs")
                || fx.text("#vmc-target-status").contains("CPU"));
        fx.settle();
        return w;
    }

    private void pickTemplate(String id) throws Exception {
        @SuppressWarnings("unchecked")
        ListView<VmTemplate> list = fx.find("#vmc-templates", ListView.class);
        fx.robot.interact(() -> list.getSelectionModel().select(list.getItems().stream()
                .filter(t -> t.id().equals(id)).findFirst().orElseThrow()));
    }

    private void set(String id, String text) {
        TextField f = fx.find(id, TextField.class);
        fx.robot.interact(() -> f.setText(text));
    }

    @SuppressWarnings("unchecked")
    private void spin(String id, int value) {
        Spinner<Integer> s = fx.find(id, Spinner.class);
        fx.robot.interact(() -> s.getValueFactory().setValue(value));
    }

    private boolean nextEnabled() {
        return !fx.find("#vmc-next", Button.class).isDisabled();
    }

    private void next(CreateVmWizard w, CreateVmWizardModel.Step expected) {
        fx.fire("#vmc-next");
        assertThat(w.current()).isEqualTo(expected);
    }

    /** From the target to the summary with valid values (a template without a GPU request on the page). */
    private void fillUpToSummary(CreateVmWizard w, String name) throws Exception {
        next(w, CreateVmWizardModel.Step.TEMPLATE);
        pickTemplate("ubuntu-cuda");
        next(w, CreateVmWizardModel.Step.NAME);
        set("#vmc-name", name);
        next(w, CreateVmWizardModel.Step.RESOURCES);
        spin("#vmc-memory", 8192);
        spin("#vmc-disk", 40);
        next(w, CreateVmWizardModel.Step.PLACEMENT);
        next(w, CreateVmWizardModel.Step.CLOUD_INIT);
        fx.robot.interact(() -> fx.find("#vmc-sshkeys", TextArea.class).setText(KEY));
        next(w, CreateVmWizardModel.Step.GPU);
        next(w, CreateVmWizardModel.Step.SUMMARY);
        fx.robot.interact(() -> fx.find("#vmc-start", CheckBox.class).setSelected(false));
    }

    private List<VmInfo> vmsNamed(ConnectionInfo c, String name) throws Exception {
        return fx.app.sessions().of(c).inventory().vms().stream().filter(v -> v.name().equals(name)).toList();
    }

    @Test
    void aVmIsCreatedOnTheDemoLabFromATemplateWithAGpuAndAppearsInTheInventory() throws Exception {
        fx = WINDOW.closing(new WizardFixture(ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
        ConnectionInfo demo = fx.app.connections().addDemo("Demo lab");
        fx.show(stage);
        CreateVmWizard w = openOn(demo, "pve-4090");
        Stage wizard = w.stage();
        assertThat(fx.text("#vmc-target-status")).contains("32 CPUs").contains("96.0 GiB memory free of 128.0 GiB")
                .contains("1 free GPUs");
        WizardFixture.writePng(wizard.getScene(), "vmcreate-1-target-light-en.png");
        next(w, CreateVmWizardModel.Step.TEMPLATE);
        assertThat(nextEnabled()).as("no template chosen yet").isFalse();
        pickTemplate("ubuntu-cuda");
        assertThat(fx.text("#vmc-template-description")).contains("NVIDIA Container Toolkit");
        assertThat(fx.text("#vmc-clone-sources")).contains("9000 ubuntu-24.04-cloud");
        WizardFixture.writePng(wizard.getScene(), "vmcreate-2-template-light-en.png");
        next(w, CreateVmWizardModel.Step.NAME);
        set("#vmc-name", "bad name!");
        assertThat(fx.text("#vmc-msg-name")).startsWith("A VM name is letters");
        assertThat(nextEnabled()).isFalse();
        set("#vmc-name", "cuda-gui-01");
        WizardFixture.writePng(wizard.getScene(), "vmcreate-3-name-light-en.png");
        next(w, CreateVmWizardModel.Step.RESOURCES);
        spin("#vmc-memory", 112 * 1024);
        assertThat(fx.text("#vmc-msg-memory")).isEqualTo("Not enough memory on pve-4090: 112.0 GiB asked, 96.0 GiB free"
                + " of 128.0 GiB");
        assertThat(fx.find("#vmc-msg-memory", Label.class).getStyleClass()).contains("danger");
        assertThat(nextEnabled()).as("not enough memory blocks Next").isFalse();
        WizardFixture.writePng(wizard.getScene(), "vmcreate-4-resources-not-enough-memory-light-en.png");
        spin("#vmc-memory", 16 * 1024);
        assertThat(fx.text("#vmc-msg-memory")).isEmpty();
        spin("#vmc-disk", 64);
        assertThat(nextEnabled()).isTrue();
        next(w, CreateVmWizardModel.Step.PLACEMENT);
        assertThat(fx.find("#vmc-storage", ChoiceBox.class).getItems()).contains("local-zfs");
        assertThat(fx.find("#vmc-network", ChoiceBox.class).getValue()).isEqualTo("vmbr0");
        WizardFixture.writePng(wizard.getScene(), "vmcreate-5-placement-light-en.png");
        next(w, CreateVmWizardModel.Step.CLOUD_INIT);
        assertThat(fx.text("#vmc-msg-ssh-keys")).contains("Give a password or an SSH public key");
        assertThat(nextEnabled()).isFalse();
        fx.robot.interact(() -> fx.find("#vmc-sshkeys", TextArea.class).setText(KEY));
        assertThat(nextEnabled()).isTrue();
        WizardFixture.writePng(wizard.getScene(), "vmcreate-6-cloud-init-light-en.png");
        next(w, CreateVmWizardModel.Step.GPU);
        @SuppressWarnings("unchecked")
        ListView<Optional<GpuInfo>> gpus = fx.find("#vmc-gpus", ListView.class);
        assertThat(gpus.getItems()).hasSize(2);
        assertThat(fx.text("#vmc-msg-gpu")).contains("expects 1 GPU");
        fx.robot.interact(() -> gpus.getSelectionModel().select(1));
        assertThat(gpus.getItems().get(1).orElseThrow().address().toString()).isEqualTo("0000:02:00.0");
        assertThat(fx.text("#vmc-msg-gpu")).isEmpty();
        WizardFixture.writePng(wizard.getScene(), "vmcreate-7-gpu-light-en.png");
        next(w, CreateVmWizardModel.Step.SUMMARY);
        String summary = fx.find("#vmc-summary", TextArea.class).getText();
        assertThat(summary).contains("Cloud-init: the template's user-data goes to the node as a snippet over its SSH"
                + " host link", "local:snippets/gpuforge-<vmid>-cuda-gui-01-user.yaml", "cicustom=user=local:snippets/");
        assertThat(summary).contains("Name: cuda-gui-01", "Memory: 16384 MiB", "Disk: 64 GiB", "GPU: 0000:02:00.0",
                "POST /nodes/pve-4090/qemu", "import-from", "PUT /nodes/pve-4090/qemu/<vmid>/resize disk=scsi0 size=64G",
                "hostpci0");
        WizardFixture.writePng(wizard.getScene(), "vmcreate-8-summary-light-en.png");

        fx.fire("#vmc-next");
        WizardFixture.waitFor(60, () -> fx.text("#vmc-status").startsWith("Created")
                || fx.text("#vmc-status").startsWith("The VM was not"));
        assertThat(fx.text("#vmc-status")).as(fx.find("#vmc-log", TextArea.class).getText())
                .matches("Created cuda-gui-01: VM \\d+ on pve-4090");
        assertThat(fx.find("#vmc-log", TextArea.class).getText()).contains("GPU 0000:02:00.0 attached");
        assertThat(fx.find("#vmc-console", Button.class).isDisabled()).isFalse();
        WizardFixture.writePng(wizard.getScene(), "vmcreate-9-create-light-en.png");
        List<VmInfo> made = vmsNamed(demo, "cuda-gui-01");
        assertThat(made).as("the VM, started, keeps its configuration").singleElement().satisfies(v -> {
            assertThat(v.ref().node()).isEqualTo("pve-4090");
            assertThat(v.memoryBytes()).isEqualTo(16L << 30);
            assertThat(v.state()).isEqualTo(VmState.RUNNING);
        });
        // the main window's VM table of the connection lists it
        @SuppressWarnings("unchecked")
        TreeView<NavItem> tree = fx.find("#navigation", TreeView.class);
        fx.robot.interact(() -> tree.getSelectionModel().select(tree.getRoot().getChildren().stream()
                .filter(i -> i.getValue().connection().map(x -> x.id() == demo.id()).orElse(false)).findFirst()
                .orElseThrow()));
        WizardFixture.waitFor(30, () -> fx.robot.lookup("#domains-table").tryQuery().isPresent()
                && fx.robot.lookup("#domains-table").queryAs(TableView.class).getItems().stream()
                .anyMatch(v -> ((VmInfo) v).name().equals("cuda-gui-01")));
    }

    @Test
    void onANodeWithoutAHostLinkTheDonePageSaysTheSetupRanOverTheGuestAgent() throws Exception {
        fx = WINDOW.closing(new WizardFixture(ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
        ConnectionInfo c = simulatorConnection();
        sim.cluster().agentBootMillis(1_500);
        sim.cluster().failCloudInitModule("scripts_user", "+ nvidia-ctk runtime configure --runtime=docker\n"
                + "nvidia-ctk: command not found");
        fx.show(stage);
        CreateVmWizard w = openOn(c, "pve-4090");
        fillUpToSummary(w, "agent-gui-01");
        fx.robot.interact(() -> fx.find("#vmc-start", CheckBox.class).setSelected(true));
        assertThat(fx.find("#vmc-summary", TextArea.class).getText()).contains("cannot go to the node as a snippet",
                "over the QEMU guest agent after the first boot",
                "agent/file-write file=/var/lib/gpuforge/user-data.yaml");

        fx.fire("#vmc-next");
        WizardFixture.waitFor(90, () -> !fx.text("#vmc-setup").isEmpty() && !fx.text("#vmc-setup")
                .startsWith("Running"));
        String log = fx.find("#vmc-log", TextArea.class).getText();
        assertThat(fx.text("#vmc-status")).as(log).matches("Created agent-gui-01: VM \\d+ on pve-4090");
        assertThat(fx.text("#vmc-setup")).as(log).contains("did not finish", "scripts_user",
                "nvidia-ctk: command not found");
        assertThat(fx.find("#vmc-provision", Button.class).isDisabled()).as("the setup can run again").isFalse();
        WizardFixture.writePng(w.stage().getScene(), "vmcreate-10-first-boot-failed-light-en.png");

        sim.cluster().failCloudInitModule("scripts_user", null);
        fx.fire("#vmc-provision");
        WizardFixture.waitFor(90, () -> fx.text("#vmc-setup").startsWith("The template's setup ran"));
        assertThat(fx.text("#vmc-setup")).contains("over the guest agent after the first boot", "write_files",
                "package_update_upgrade_install");
        assertThat(fx.find("#vmc-log", TextArea.class).getText()).contains("over the guest agent after the first boot",
                "single --name scripts_user");
        assertThat(fx.find("#vmc-provision", Button.class).isDisabled()).isTrue();
        WizardFixture.writePng(w.stage().getScene(), "vmcreate-11-first-boot-light-en.png");
        assertThat(vmsNamed(c, "agent-gui-01")).singleElement().satisfies(v -> assertThat(v.state())
                .isEqualTo(VmState.RUNNING));
    }

    @Test
    void aProxmoxTemplateVmIsClonedThroughTheWizardAndGetsTheChosenResourcesCloudInitAndGpu() throws Exception {
        fx = WINDOW.closing(new WizardFixture(ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
        ConnectionInfo demo = fx.app.connections().addDemo("Demo lab");
        fx.show(stage);
        CreateVmWizard w = openOn(demo, "pve-3090");
        next(w, CreateVmWizardModel.Step.TEMPLATE);
        @SuppressWarnings("unchecked")
        ListView<VmInfo> clones = fx.find("#vmc-clone-list", ListView.class);
        assertThat(clones.getItems()).extracting(v -> v.ref().id()).containsExactly("9000");
        fx.robot.interact(() -> clones.getSelectionModel().select(0));
        WizardFixture.waitFor(30, () -> w.model().cloneSource.get() != null);
        fx.settle();
        assertThat(fx.find("#vmc-linked", CheckBox.class).isSelected()).as("PVE clones a template linked by default")
                .isTrue();
        assertThat(fx.text("#vmc-template-description")).contains("Made from VM 9000");
        fx.robot.interact(() -> fx.find("#vmc-linked", CheckBox.class).setSelected(false));
        WizardFixture.writePng(w.stage().getScene(), "vmcreate-2-clone-source-light-en.png");
        next(w, CreateVmWizardModel.Step.NAME);
        set("#vmc-name", "clone-gui-01");
        next(w, CreateVmWizardModel.Step.RESOURCES);
        assertThat(fx.find("#vmc-disk", Spinner.class).isDisabled()).as("a clone keeps the template's disk").isTrue();
        assertThat(fx.text("#vmc-clone-disk")).contains("32 GiB");
        spin("#vmc-cores", 8);
        spin("#vmc-memory", 16384);
        next(w, CreateVmWizardModel.Step.PLACEMENT);
        assertThat(fx.find("#vmc-storage", ChoiceBox.class).isDisabled()).as("a full clone picks its storage").isFalse();
        next(w, CreateVmWizardModel.Step.CLOUD_INIT);
        set("#vmc-user", "ada");
        fx.robot.interact(() -> fx.find("#vmc-sshkeys", TextArea.class).setText(KEY));
        next(w, CreateVmWizardModel.Step.GPU);
        @SuppressWarnings("unchecked")
        ListView<Optional<GpuInfo>> gpus = fx.find("#vmc-gpus", ListView.class);
        fx.robot.interact(() -> gpus.getSelectionModel().select(1));
        String gpu = gpus.getItems().get(1).orElseThrow().address().toString();
        next(w, CreateVmWizardModel.Step.SUMMARY);
        fx.robot.interact(() -> fx.find("#vmc-start", CheckBox.class).setSelected(false));
        String summary = fx.find("#vmc-summary", TextArea.class).getText();
        assertThat(summary).contains("Source: clone of VM 9000 ubuntu-24.04-cloud, full copy onto local-zfs",
                "POST /nodes/pve-3090/qemu/9000/clone", "full: 1", "storage: local-zfs",
                "PUT /nodes/pve-3090/qemu/<newid>/config", "cores: 8", "memory: 16384", "ciuser: ada", "hostpci0");
        WizardFixture.writePng(w.stage().getScene(), "vmcreate-8-summary-clone-light-en.png");
        fx.fire("#vmc-next");
        WizardFixture.waitFor(60, () -> fx.text("#vmc-status").startsWith("Created")
                || fx.text("#vmc-status").startsWith("The VM was not"));
        String log = fx.find("#vmc-log", TextArea.class).getText();
        assertThat(fx.text("#vmc-status")).as(log).matches("Created clone-gui-01: VM \\d+ on pve-3090");
        assertThat(log).contains("Configuring the clone").contains("GPU " + gpu + " attached");
        WizardFixture.writePng(w.stage().getScene(), "vmcreate-9-create-clone-light-en.png");
        VmInfo made = vmsNamed(demo, "clone-gui-01").get(0);
        var cfg = fx.app.sessions().of(demo).readConfig(made.ref()).settings();
        assertThat(cfg).containsEntry("cores", "8").containsEntry("memory", "16384").containsEntry("ciuser", "ada")
                .doesNotContainKey("template");
        assertThat(cfg.get("scsi0")).startsWith("local-zfs:vm-" + made.ref().id() + "-disk-0");
        assertThat(cfg.get("hostpci0")).startsWith("mapping=");
    }

    @Test
    void aRefusedValueIsShownOnItsFieldAndAnIdTakenMeanwhileIsRetried() throws Exception {
        fx = WINDOW.closing(new WizardFixture(ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
        ConnectionInfo c = simulatorConnection();
        fx.show(stage);
        CreateVmWizard w = openOn(c, "pve-3090");
        fillUpToSummary(w, "race-01");
        fx.fire("#vmc-back");
        fx.fire("#vmc-back");
        assertThat(w.current()).isEqualTo(CreateVmWizardModel.Step.CLOUD_INIT);
        // GPUForge does not check DNS server addresses itself: Proxmox VE's 400 names the field
        set("#vmc-dns", "dns.example.org");
        next(w, CreateVmWizardModel.Step.GPU);
        next(w, CreateVmWizardModel.Step.SUMMARY);
        sim.cluster().raceNextCreate();
        fx.fire("#vmc-next");
        WizardFixture.waitFor(60, () -> w.current() == CreateVmWizardModel.Step.CLOUD_INIT);
        assertThat(fx.text("#vmc-msg-dns")).containsIgnoringCase("nameserver");
        assertThat(nextEnabled()).as("the refused value blocks Next until it is changed").isFalse();
        WizardFixture.writePng(w.stage().getScene(), "vmcreate-refused-dns-light-en.png");
        assertThat(vmsNamed(c, "race-01")).isEmpty();
        set("#vmc-dns", "192.0.2.53");
        assertThat(fx.text("#vmc-msg-dns")).isEmpty();
        next(w, CreateVmWizardModel.Step.GPU);
        next(w, CreateVmWizardModel.Step.SUMMARY);
        fx.fire("#vmc-next");
        WizardFixture.waitFor(60, () -> fx.text("#vmc-status").startsWith("Created")
                || fx.text("#vmc-status").startsWith("The VM was not"));
        assertThat(fx.text("#vmc-status")).as(fx.find("#vmc-log", TextArea.class).getText())
                .startsWith("Created race-01");
        List<VmInfo> all = fx.app.sessions().of(c).inventory().vms();
        VmInfo other = all.stream().filter(v -> v.name().equals("someone-else")).findFirst().orElseThrow();
        assertThat(vmsNamed(c, "race-01")).singleElement()
                .satisfies(v -> assertThat(v.ref().id()).isNotEqualTo(other.ref().id()));
    }

    /**
     * Cancelling the wait for the guest agent keeps the VM and offers its setup; the setup then runs when asked. It
     * failed at once before: the create's cancel flag was reset only when a create started, so the setup saw it set.
     */
    @Test
    void afterTheCreateIsCancelledTheTemplatesSetupRunsWhenAsked() throws Exception {
        fx = WINDOW.closing(new WizardFixture(ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
        ConnectionInfo c = simulatorConnection();
        sim.cluster().agentBootMillis(3_600_000);
        fx.show(stage);
        CreateVmWizard w = openOn(c, "pve-4090");
        fillUpToSummary(w, "agent-cancel-01");
        fx.robot.interact(() -> fx.find("#vmc-start", CheckBox.class).setSelected(true));
        fx.fire("#vmc-next");
        WizardFixture.waitFor(90, () -> fx.find("#vmc-log", TextArea.class).getText()
                .contains("Waiting for the QEMU guest agent"));
        fx.fire("#vmc-cancel-create");
        WizardFixture.waitFor(60, () -> fx.text("#vmc-setup").contains("Cancelled while waiting for the guest agent"));
        assertThat(fx.find("#vmc-provision", Button.class).isDisabled()).as("the setup is offered").isFalse();
        assertThat(vmsNamed(c, "agent-cancel-01")).as("the VM stays").hasSize(1);

        // its guest is still booting (for an hour): the admin stops it; the setup starts it again and runs
        VmInfo vm = vmsNamed(c, "agent-cancel-01").get(0);
        sim.cluster().agentBootMillis(200);
        sim.tokenClient(io.gpuforge.hypervisor.proxmox.PveContract.load()).post("/nodes/" + vm.ref().node() + "/qemu/"
                + vm.ref().id() + "/status/stop", java.util.Map.of());
        org.testfx.util.WaitForAsyncUtils.waitFor(60, java.util.concurrent.TimeUnit.SECONDS,
                () -> !vmsNamed(c, "agent-cancel-01").get(0).state().isRunning());
        fx.fire("#vmc-provision");
        WizardFixture.waitFor(90, () -> fx.text("#vmc-setup").startsWith("The template's setup ran"));
        assertThat(fx.find("#vmc-log", TextArea.class).getText()).contains("single --name scripts_user");
    }

    @Test
    void aCancelledCreateLeavesNoVmBehind() throws Exception {
        fx = WINDOW.closing(new WizardFixture(ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
        ConnectionInfo c = simulatorConnection();
        fx.show(stage);
        CreateVmWizard w = openOn(c, "pve-3090");
        fillUpToSummary(w, "cancel-01");
        sim.cluster().taskMillis(60_000);
        fx.fire("#vmc-next");
        WizardFixture.waitFor(20, () -> fx.find("#vmc-log", TextArea.class).getText().length() > 0);
        fx.fire("#vmc-cancel-create");
        WizardFixture.waitFor(60, () -> fx.text("#vmc-status").startsWith("The VM was not"));
        sim.cluster().taskMillis(50);
        fx.settle();
        assertThat(fx.find("#vmc-console", Button.class).isDisabled()).isTrue();
        assertThat(vmsNamed(c, "cancel-01")).isEmpty();
    }
}
