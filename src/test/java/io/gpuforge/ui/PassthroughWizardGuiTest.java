package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.SimHost;
import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.passthrough.GpuVerdict;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.testing.DemoLabGpus;
import io.gpuforge.testing.Eventually;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.passthrough.PassthroughWizard;
import io.gpuforge.ui.passthrough.Preselection;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The passthrough wizard on the Demo lab, driven through its pages in the real window: a GPU of a simulated host
 * goes from "needs host setup" to attached to a VM (Host → GPU → Readiness → Plan → Apply → Reboot → Verify → Attach
 * → Done), with a screenshot of each page.
 */
@Tag("ui")
class PassthroughWizardGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private static final PciAddress GPU = PciAddress.parse("0000:02:00.0");
    private Stage owner;
    private GuiFixture fx;
    private ConnectionInfo demo;
    private SimHost host;

    @Start
    void start(Stage stage) throws Exception {
        owner = stage;
    }

    private void lab(ThemeChoice theme, LanguageChoice language) throws Exception {
        AtomicReference<Exception> failed = new AtomicReference<>();
        WaitForAsyncUtils.asyncFx(() -> {
            try {
                fx = WINDOW.closing(new GuiFixture(owner, theme, language));
                // as ui/shell links it in the main window: the Attach page's "Create a VM..."
                fx.ui.links().vmCreation(io.gpuforge.ui.vmcreate.CreateVmWizard.creation(fx.ui,
                        io.gpuforge.ui.vmcreate.VmCreateServices.of(fx.app)));
                fx.ui.links().vmDiagnosis((o, c, vm) -> io.gpuforge.ui.diagnose.VmDiagnosisWindow.open(fx.ui,
                        io.gpuforge.ui.diagnose.DiagnoseServices.of(fx.app), o, c, vm));
            } catch (Exception e) {
                failed.set(e);
            }
        });
        WaitForAsyncUtils.waitForFxEvents();
        if (failed.get() != null) {
            throw failed.get();
        }
        demo = fx.app.connections().addDemo("Demo lab");
        host = fx.app.demoLab().host("pve-3090").orElseThrow().rebootTakes(Duration.ofMillis(400))
                .lineDelay(Duration.ZERO).waitLimit(Duration.ofSeconds(20));
    }

    private VmRef cloneVm(String name) throws Exception {
        TaskOutcome t = fx.app.sessions().of(demo).cloneVm(new CloneRequest(new VmRef("pve-3090", "9000"), name,
                Optional.empty(), false, Optional.empty()), TaskListener.none(), () -> false);
        assertThat(t.ok()).as(t.status()).isTrue();
        return t.created().orElseThrow();
    }

    private Stage open(FxRobot robot, Optional<Preselection> pre) {
        AtomicReference<Stage> w = new AtomicReference<>();
        robot.interact(() -> w.set(PassthroughWizard.open(fx.ui, fx.passthrough(), owner, pre)));
        return w.get();
    }

    /**
     * Waits until {@code c} holds. Its lookups walk the window's scene from the test's thread while the FX thread
     * changes it (a page replaced): a walk that meets a child list mid-change throws, and is tried again at the next
     * poll instead of failing the test (seen once in a full run on a loaded machine).
     */
    private static void waitFor(String what, Callable<Boolean> c) throws Exception {
        Callable<Boolean> retried = () -> {
            try {
                return c.call();
            } catch (IndexOutOfBoundsException | java.util.ConcurrentModificationException e) {
                return false;
            }
        };
        Eventually.untilHolds(what, Duration.ofSeconds(60), retried::call);
    }

    /** What a page shows under {@code id}, read on the FX thread (a page and its buttons are set in one go there). */
    private static String text(FxRobot robot, String id) {
        return onFx(() -> texts(robot.lookup(id).queryAs(Node.class)));
    }

    private static String texts(Node n) {
        StringBuilder out = new StringBuilder(n instanceof Labeled ? ((Labeled) n).getText() + "\n" : "");
        if (n instanceof ListView) {
            ((ListView<?>) n).getItems().forEach(i -> out.append(i).append('\n'));
        }
        if (n instanceof Parent) {
            ((Parent) n).getChildrenUnmodifiable().forEach(c -> out.append(texts(c)));
        }
        return out.toString();
    }

    private static Button next(FxRobot robot) {
        return robot.lookup("#pt-next").queryAs(Button.class);
    }

    private static void clickNext(FxRobot robot) throws Exception {
        waitFor("Next to be enabled", () -> !next(robot).isDisabled());
        robot.interact(() -> next(robot).fire());
    }

    private static String title(FxRobot robot) {
        return onFx(() -> robot.lookup("#pt-title").queryAs(Label.class).getText());
    }

    private static void shot(Stage w, String name) throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(Files.size(GuiFixture.writePng(GuiFixture.snapshot(w.getScene()), name))).isPositive();
    }

    @Test
    void aGpuOfTheDemoLabGoesFromNeedsHostSetupToAttachedToAVmThroughEveryPage(FxRobot robot) throws Exception {
        lab(ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        VmRef vm = cloneVm("gpu-lab-01");
        Stage w = open(robot, Optional.empty());

        @SuppressWarnings("unchecked")
        ListView<Preselection> hosts = robot.lookup("#pt-hosts").queryAs(ListView.class);
        waitFor("the Demo lab's nodes", () -> hosts.getItems().stream().anyMatch(p -> p.node().isPresent()));
        assertThat(onFx(() -> List.copyOf(hosts.getItems()))).filteredOn(p -> p.node().isPresent()).extracting(p -> p.node().get())
                .contains("pve-4090", "pve-3090");
        robot.interact(() -> hosts.getSelectionModel().select(hosts.getItems().stream()
                .filter(p -> p.node().equals(Optional.of("pve-3090"))).findFirst().orElseThrow()));
        assertThat(onFx(() -> robot.lookup("#pt-demo").queryAs(Label.class).isVisible())).as("clearly labelled as simulated").isTrue();
        shot(w, "wizard-1-host-light-en.png");
        clickNext(robot);

        waitFor("the GPU page", () -> "GPU".equals(title(robot)) && robot.lookup("#pt-gpus").tryQuery().isPresent());
        @SuppressWarnings("unchecked")
        ListView<GpuVerdict> gpus = robot.lookup("#pt-gpus").queryAs(ListView.class);
        assertThat(onFx(() -> List.copyOf(gpus.getItems()))).extracting(GpuVerdict::address).contains(GPU);
        robot.interact(() -> gpus.getSelectionModel().select(gpus.getItems().stream()
                .filter(g -> g.address().equals(GPU)).findFirst().orElseThrow()));
        shot(w, "wizard-2-gpu-light-en.png");
        clickNext(robot);

        waitFor("the readiness page", () -> "Readiness".equals(title(robot)) && robot.lookup("#pt-checks").tryQuery().isPresent());
        assertThat(text(robot, "#pt-checks")).contains("Passed");
        assertThat(text(robot, "#pt-checks")).as("the warnings the plan fixes say so")
                .contains("The plan fixes this: nothing to acknowledge.");
        assertThat(text(robot, "#pt-checks")).contains("Checked at the attach, once the VM is chosen");
        assertThat(ack(robot)).as("nothing is left to acknowledge: %s", text(robot, "#pt-checks")).isEmpty();
        assertThat(disabled(robot, "#pt-next")).isFalse();
        shot(w, "wizard-3-readiness-light-en.png");
        clickNext(robot);

        waitFor("the plan page", () -> "Plan".equals(title(robot)) && robot.lookup("#pt-commands").tryQuery().isPresent());
        String diff = text(robot, "#pt-diff");
        assertThat(diff).contains("/etc/kernel/cmdline").contains("+").contains("iommu=pt");
        assertThat(text(robot, "#pt-commands")).contains("proxmox-boot-tool refresh");
        assertThat(host.commands()).as("nothing runs before the plan was applied").isEmpty();
        assertThat(onFx(() -> next(robot).getText())).isEqualTo("Apply the plan");
        shot(w, "wizard-4-plan-light-en.png");
        clickNext(robot);

        waitFor("the apply to end", () -> "Apply".equals(title(robot)) && !next(robot).isDisabled()
                && robot.lookup("#pt-output").tryQuery().isPresent());
        @SuppressWarnings("unchecked")
        ListView<String> output = robot.lookup("#pt-output").queryAs(ListView.class);
        assertThat(onFx(() -> List.copyOf(output.getItems()))).anyMatch(l -> l.contains("running proxmox-boot-tool refresh"))
                .anyMatch(l -> l.contains("Copying and configuring kernels"));
        assertThat(onFx(() -> robot.lookup("#pt-apply-state").queryAs(Label.class).getText()))
                .startsWith("Applied (journal ");
        assertThat(disabled(robot, "#pt-back")).as("no way back past an apply").isTrue();
        shot(w, "wizard-5-apply-light-en.png");
        clickNext(robot);

        waitFor("the reboot page", () -> "Reboot".equals(title(robot)) && robot.lookup("#pt-reboot-now").tryQuery().isPresent());
        assertThat(disabled(robot, "#pt-next")).as("the wizard asks before it reboots").isTrue();
        assertThat(host.commands()).noneMatch(c -> c.command().startsWith("reboot"));
        robot.interact(() -> robot.lookup("#pt-reboot-now").queryAs(Button.class).fire());
        waitFor("the host to come back", () -> !next(robot).isDisabled());
        assertThat(onFx(() -> robot.lookup("#pt-reboot-state").queryAs(Label.class).getText()))
                .startsWith("The host is back after");
        List<String> rebootLog = onFx(() -> List.copyOf(robot.lookup("#pt-output").<String>queryListView().getItems()));
        assertThat(rebootLog).as("one line per change of phase, not one per poll")
                .filteredOn(l -> l.startsWith("Down, waiting")).hasSizeLessThanOrEqualTo(1);
        assertThat(rebootLog).anyMatch(l -> l.startsWith("Back ("));
        assertThat(onFx(() -> robot.lookup("#pt-reboot-status").queryAs(Label.class).isVisible()))
                .as("the status line gives way to the result").isFalse();
        assertThat(host.commands()).extracting(SimHost.Recorded::command).last().asString()
                .startsWith("reboot (Proxmox VE API");
        shot(w, "wizard-6-reboot-light-en.png");
        clickNext(robot);

        waitFor("the verify", () -> "Verify".equals(title(robot)) && !next(robot).isDisabled()
                && robot.lookup("#pt-verify-items").tryQuery().isPresent());
        assertThat(text(robot, "#pt-verify-items")).contains("The host is ready");
        shot(w, "wizard-7-verify-light-en.png");
        clickNext(robot);

        waitFor("the attach page", () -> "Attach".equals(title(robot)) && robot.lookup("#pt-vms").tryQuery().isPresent()
                && !robot.lookup("#pt-vms").queryAs(ListView.class).getItems().isEmpty());
        @SuppressWarnings("unchecked")
        ListView<VmInfo> vms = robot.lookup("#pt-vms").queryAs(ListView.class);
        assertThat(onFx(() -> List.copyOf(vms.getItems()))).extracting(VmInfo::ref).contains(vm).noneMatch(r -> r.id().equals("9000"));
        // render-02 has a GPU (hostpci0: mapping=render-3090): named, and not given a second one unless asked
        robot.interact(() -> vms.getSelectionModel().select(vms.getItems().stream().filter(v -> v.name()
                .equals("render-02")).findFirst().orElseThrow()));
        waitFor("render-02's check", () -> text(robot, "#pt-attach-plan").contains("has a GPU already"));
        assertThat(disabled(robot, "#pt-next")).as("refused before anything is written").isTrue();
        robot.interact(() -> robot.lookup("#pt-add-gpu").queryAs(CheckBox.class).setSelected(true));
        waitFor("render-02 with both GPUs", () -> text(robot, "#pt-attach-plan").contains("keeps its GPU 0000:01:00.0"));
        assertThat(text(robot, "#pt-attach-plan")).contains("hostpci1: mapping=gpu-pve-3090-02-00,pcie=1");
        robot.interact(() -> robot.lookup("#pt-replace-gpu").queryAs(CheckBox.class).setSelected(true));
        waitFor("render-02's GPU replaced", () -> text(robot, "#pt-attach-plan")
                .contains("hostpci0: mapping=render-3090,pcie=1 (removed)"));
        assertThat(text(robot, "#pt-attach-plan")).contains("hostpci0: mapping=gpu-pve-3090-02-00,pcie=1")
                .doesNotContain("keeps its GPU");
        assertThat(onFx(() -> robot.lookup("#pt-add-gpu").queryAs(CheckBox.class).isSelected())).isFalse();
        robot.interact(() -> robot.lookup("#pt-replace-gpu").queryAs(CheckBox.class).setSelected(false));
        robot.interact(() -> vms.getSelectionModel().select(vms.getItems().stream().filter(v -> v.ref().equals(vm))
                .findFirst().orElseThrow()));
        waitFor("the VM's exact changes", () -> text(robot, "#pt-attach-plan").contains("gets exactly these changes"));
        String shown = text(robot, "#pt-attach-plan");
        assertThat(shown).contains("hostpci0: mapping=gpu-pve-3090-02-00,pcie=1").contains("balloon: 0");
        assertThat(fx.app.sessions().of(demo).readConfig(vm).details().hostDevices()).as("shown, not written yet")
                .isEmpty();
        shot(w, "wizard-8-attach-light-en.png");
        clickNext(robot);

        waitFor("the done page", () -> "Done".equals(title(robot)) && robot.lookup("#pt-changes").tryQuery().isPresent());
        String changes = text(robot, "#pt-changes");
        assertThat(changes).contains("hostpci0: mapping=").contains("balloon: 0");
        assertThat(shown).as("what the Attach page showed is what was written").contains(changes.strip().split("\n"));
        assertThat(fx.app.sessions().of(demo).readConfig(vm).details().hostDevices()).contains(GPU);
        assertThat(steps(robot)).doesNotContain("not needed");
        shot(w, "wizard-9-done-light-en.png");

        robot.interact(() -> robot.lookup("#pt-start-vm").queryAs(Button.class).fire());
        waitFor("the guest's answers", () -> robot.lookup("#pt-guest").queryAs(Label.class).getText().contains("$ lspci"));
        waitFor("lspci's answer", () -> robot.lookup("#pt-guest").queryAs(Label.class).getText()
                .contains("VGA compatible controller"));
        String guest = onFx(() -> robot.lookup("#pt-guest").queryAs(Label.class).getText());
        // the guest sees the card that was passed through (the Demo lab's pve-3090 holds RTX 3090s)
        assertThat(guest).startsWith("$ nvidia-smi -L\n").contains("GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-")
                .contains("GeForce RTX 3090 [10de:2204]").doesNotContain("4090");
        assertThat(fx.app.sessions().of(demo).inventory().vm(vm).orElseThrow().state().name()).isEqualTo("RUNNING");
        assertThat(onFx(() -> robot.lookup("#pt-start-vm").queryAs(Button.class).isVisible()))
                .as("a started VM is not offered to be started again").isFalse();
        assertThat(onFx(() -> robot.lookup("#pt-why").queryAs(Button.class).isVisible()))
                .as("a VM that started with its GPU seen needs no diagnosis").isFalse();
        shot(w, "wizard-9-done-guest-light-en.png");
    }

    private static String steps(FxRobot robot) {
        return onFx(() -> robot.lookup("#pt-steps").queryAs(Parent.class).getChildrenUnmodifiable().stream()
                .map(n -> ((Label) n).getText()).collect(Collectors.joining(",")));
    }

    /** Whether the button {@code id} is disabled, read on the FX thread. */
    private static boolean disabled(FxRobot robot, String id) {
        return onFx(() -> robot.lookup(id).queryAs(Button.class).isDisabled());
    }

    /** The acknowledgement of the readiness page's warnings, when it shows one; looked up on the FX thread. */
    private static Optional<CheckBox> ack(FxRobot robot) {
        return onFx(() -> robot.lookup("#pt-ack").tryQueryAs(CheckBox.class));
    }

    @Test
    void aRebootPutOffResumesFromTheHostsJournalAtTheRebootWithTheApplyShownAsNotNeeded(FxRobot robot) throws Exception {
        lab(ThemeChoice.DARK, LanguageChoice.CHINESE_SIMPLIFIED);
        Stage w = open(robot, Optional.of(Preselection.node(demo, "pve-3090", Optional.of(GPU))));
        waitFor("the readiness of the preselected GPU", () -> robot.lookup("#pt-checks").tryQuery().isPresent());
        assertThat(title(robot)).isEqualTo("就绪检查");
        ack(robot).ifPresent(ack -> robot.interact(() -> ack.setSelected(true)));
        shot(w, "wizard-3-readiness-dark-zh.png");
        clickNext(robot);
        waitFor("the plan page", () -> "计划".equals(title(robot)) && robot.lookup("#pt-diff").tryQuery().isPresent());
        assertThat(onFx(() -> next(robot).getText())).isEqualTo("应用此计划");
        shot(w, "wizard-4-plan-dark-zh.png");
        clickNext(robot);
        waitFor("the apply to end", () -> "应用".equals(title(robot)) && !next(robot).isDisabled()
                && robot.lookup("#pt-output").tryQuery().isPresent());
        clickNext(robot);
        waitFor("the reboot page", () -> robot.lookup("#pt-reboot-later").tryQuery().isPresent());
        // put the reboot off: close the wizard without rebooting
        robot.interact(() -> robot.lookup("#pt-cancel").queryAs(Button.class).fire());
        assertThat(host.commands()).noneMatch(c -> c.command().startsWith("reboot"));

        Stage again = open(robot, Optional.of(Preselection.node(demo, "pve-3090", Optional.of(GPU))));
        waitFor("the readiness again", () -> robot.lookup("#pt-message").tryQuery().isPresent());
        assertThat(onFx(() -> robot.lookup("#pt-message").queryAs(Label.class).getText())).as("configured but not rebooted")
                .contains("需要重启");
        ack(robot).ifPresent(ack -> robot.interact(() -> ack.setSelected(true)));
        clickNext(robot);
        waitFor("the reboot page", () -> robot.lookup("#pt-reboot-now").tryQuery().isPresent());
        assertThat(steps(robot)).contains("计划（无需此步）", "应用（无需此步）");
        robot.interact(() -> robot.lookup("#pt-reboot-now").queryAs(Button.class).fire());
        waitFor("the host to come back", () -> !next(robot).isDisabled());
        clickNext(robot);
        waitFor("the verify", () -> "验证".equals(title(robot)) && !next(robot).isDisabled()
                && robot.lookup("#pt-verify-items").tryQuery().isPresent());
        assertThat(text(robot, "#pt-verify-items")).contains("主机已就绪");
        shot(again, "wizard-7-verify-dark-zh.png");
        assertThat(onFx(w::isShowing)).isFalse();
    }

    @Test
    void aGpuWithEverythingInPlaceGoesStraightToTheAttach(FxRobot robot) throws Exception {
        lab(ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        Stage w = open(robot, Optional.of(Preselection.node(demo, "pve-4090", Optional.of(PciAddress.parse("0000:01:00.0")))));
        waitFor("the readiness", () -> robot.lookup("#pt-message").tryQuery().isPresent());
        assertThat(onFx(() -> robot.lookup("#pt-message").queryAs(Label.class).getText()))
                .startsWith("Everything is in place already");
        ack(robot).ifPresent(ack -> robot.interact(() -> ack.setSelected(true)));
        clickNext(robot);
        waitFor("the attach page", () -> "Attach".equals(title(robot)) && robot.lookup("#pt-vms").tryQuery().isPresent());
        assertThat(steps(robot)).contains("Plan (not needed)", "Apply (not needed)", "Reboot (not needed)",
                "Verify (not needed)");
        assertThat(fx.app.demoLab().host("pve-4090").orElseThrow().commands()).isEmpty();
        shot(w, "wizard-in-place-light-en.png");
    }

    /**
     * The Done page of a VM whose start then fails (its memory cannot be pinned): the diagnosis window opens by itself
     * with the cause, and the page keeps "Why did it fail?" for later.
     */
    @Test
    void aVmThatDoesNotStartOnTheDonePageIsDiagnosed(FxRobot robot) throws Exception {
        lab(ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        TaskOutcome cloned = fx.app.sessions().of(demo).cloneVm(new CloneRequest(new VmRef("pve-3090", "9000"),
                "big-01", Optional.of("pve-4090"), true, Optional.empty()), TaskListener.none(), () -> false);
        assertThat(cloned.ok()).as(cloned.status()).isTrue();
        VmRef vm = cloned.created().orElseThrow();
        DemoLabGpus.freeTrain01sGpu(fx.app, demo); // the card goes to big-01: train-01 gives it up first
        fx.app.demoLab().failStarts(Integer.parseInt(vm.id()), List.of("kvm: -device vfio-pci,host=0000:01:00.0,"
                + "id=hostpci0.0: vfio 0000:01:00.0: failed to setup container for group 12: memory listener"
                + " initialization failed: Region pc.ram: vfio_dma_map(0x5634, 0x0, 0x80000000, 0x7f1e) = -12 (Cannot"
                + " allocate memory)"), "start failed: QEMU exited with code 1");
        open(robot, Optional.of(Preselection.node(demo, "pve-4090", Optional.of(PciAddress.parse("0000:01:00.0")))));
        waitFor("the readiness", () -> robot.lookup("#pt-message").tryQuery().isPresent());
        ack(robot).ifPresent(ack -> robot.interact(() -> ack.setSelected(true)));
        clickNext(robot);
        waitFor("the attach page", () -> "Attach".equals(title(robot)) && robot.lookup("#pt-vms").tryQuery().isPresent()
                && robot.lookup("#pt-vms").queryAs(ListView.class).getItems().size() > 0);
        @SuppressWarnings("unchecked")
        ListView<VmInfo> vms = robot.lookup("#pt-vms").queryAs(ListView.class);
        waitFor("the new VM in the list", () -> onFx(() -> vms.getItems().stream().anyMatch(v -> v.ref().equals(vm))));
        robot.interact(() -> vms.getSelectionModel().select(vms.getItems().stream().filter(v -> v.ref().equals(vm))
                .findFirst().orElseThrow()));
        clickNext(robot);
        waitFor("the done page", () -> "Done".equals(title(robot)) && robot.lookup("#pt-start-vm").tryQuery().isPresent());
        assertThat(onFx(() -> robot.lookup("#pt-why").queryAs(Button.class).isVisible())).isFalse();
        robot.interact(() -> robot.lookup("#pt-start-vm").queryAs(Button.class).fire());
        waitFor("the diagnosis", () -> robot.lookup("#vm-diagnose-status").tryQuery().map(n -> ((Label) n).getText()
                .startsWith("The cause: ")).orElse(false));
        assertThat(onFx(() -> robot.lookup("#diagnose-cause").queryAs(Label.class).getText()))
                .isEqualTo("The VM's memory could not be pinned for the GPU");
        assertThat(onFx(() -> robot.lookup("#pt-guest").queryAs(Label.class).getText()))
                .startsWith("The VM did not start: start failed: QEMU exited with code 1");
        assertThat(onFx(() -> robot.lookup("#pt-why").queryAs(Button.class).isVisible())).isTrue();
    }

    @Test
    void fromAGpuOneConfirmationRunsApplyRebootVerifyAndAttach(FxRobot robot) throws Exception {
        lab(ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        VmRef vm = cloneVm("gpu-lab-02");
        Stage w = open(robot, Optional.of(Preselection.node(demo, "pve-3090", Optional.of(GPU))));
        waitFor("the readiness", () -> robot.lookup("#pt-checks").tryQuery().isPresent());
        shot(w, "wizard-one-click-light-en.png");
        waitFor("the one-click button", () -> robot.lookup("#pt-run-all").tryQuery().isPresent());
        @SuppressWarnings("unchecked")
        ComboBox<VmInfo> vms = robot.lookup("#pt-oneclick-vm").queryAs(ComboBox.class);
        robot.interact(() -> vms.getSelectionModel().select(vms.getItems().stream().filter(v -> v.ref().equals(vm))
                .findFirst().orElseThrow()));
        ack(robot).ifPresent(ack -> {
            assertThat(disabled(robot, "#pt-run-all")).isTrue();
            robot.interact(() -> ack.setSelected(true));
        });
        shot(w, "wizard-one-click-light-en.png");
        Platform.runLater(() -> robot.lookup("#pt-run-all").queryAs(Button.class).fire());
        waitFor("the one confirmation", () -> robot.lookup(".dialog-pane").queryAll().stream()
                .anyMatch(n -> String.valueOf(((DialogPane) n).getContentText()).contains("gpu-lab-02")));
        DialogPane confirm = onFx(() -> (DialogPane) robot.lookup(".dialog-pane").queryAll().stream()
                .filter(n -> String.valueOf(((DialogPane) n).getContentText()).contains("gpu-lab-02")).findFirst()
                .orElseThrow());
        assertThat(onFx(confirm::getContentText)).contains("0000:02:00.0").contains("4 files").contains("reboots the host")
                .contains("hostpci0: mapping=gpu-pve-3090-02-00,pcie=1").containsPattern("Plan digest: [0-9a-f]{16}");
        assertThat(host.commands()).as("nothing before the confirmation").isEmpty();
        robot.interact(() -> ((Button) confirm.lookupButton(confirm.getButtonTypes().get(0))).fire());
        waitFor("the done page", () -> "Done".equals(title(robot)) && robot.lookup("#pt-changes").tryQuery().isPresent());
        assertThat(text(robot, "#pt-changes")).contains("hostpci0: mapping=");
        assertThat(fx.app.sessions().of(demo).readConfig(vm).details().hostDevices()).contains(GPU);
        assertThat(host.commands()).extracting(SimHost.Recorded::command).anyMatch(c -> c.startsWith("reboot (Proxmox VE API"));
        shot(w, "wizard-one-click-done-light-en.png");
    }

    @Test
    void oneClickRefusesANodeWithRunningGuestsBeforeAnyChange(FxRobot robot) throws Exception {
        lab(ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        VmRef busy = cloneVm("busy-02");
        TaskOutcome started = fx.app.sessions().of(demo).vmAction(busy, VmAction.START, TaskListener.none(), () -> false);
        assertThat(started.ok()).as(started.status()).isTrue();
        VmRef vm = cloneVm("gpu-lab-03");
        open(robot, Optional.of(Preselection.node(demo, "pve-3090", Optional.of(GPU))));
        waitFor("the one-click button", () -> robot.lookup("#pt-run-all").tryQuery().isPresent());
        @SuppressWarnings("unchecked")
        ComboBox<VmInfo> vms = robot.lookup("#pt-oneclick-vm").queryAs(ComboBox.class);
        robot.interact(() -> vms.getSelectionModel().select(vms.getItems().stream().filter(v -> v.ref().equals(vm))
                .findFirst().orElseThrow()));
        ack(robot).ifPresent(ack -> robot.interact(() -> ack.setSelected(true)));
        robot.interact(() -> robot.lookup("#pt-run-all").queryAs(Button.class).fire());
        waitFor("the refusal", () -> onFx(() -> robot.lookup("#pt-error").queryAs(Label.class).getText())
                .contains("pve-3090 runs busy-02 (VM " + busy.id() + "): GPUForge does not reboot a node under running"
                        + " guests"));
        assertThat(robot.lookup(".dialog-pane").queryAll()).as("no confirmation offered").isEmpty();
        assertThat(host.commands()).as("nothing changed on the host").isEmpty();
        assertThat(title(robot)).isEqualTo("Readiness");
    }
}
