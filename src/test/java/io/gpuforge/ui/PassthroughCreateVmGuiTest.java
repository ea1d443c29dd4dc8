package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.testing.DemoLabGpus;
import io.gpuforge.testing.Eventually;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.passthrough.PassthroughWizard;
import io.gpuforge.ui.passthrough.Preselection;
import io.gpuforge.ui.vmcreate.CreateVmWizard;
import io.gpuforge.ui.vmcreate.VmCreateServices;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * "Create a VM…" on the passthrough wizard's Attach page opens the VM wizard on the GPU's node (linked as the main
 * window's shell links it); a VM created there is chosen and gets the GPU, and the passthrough wizard reaches Done;
 * closed without a VM, the Attach page is as it was. The Demo lab's pve-4090, whose card is in place already.
 */
@Tag("ui")
class PassthroughCreateVmGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private static final PciAddress GPU = PciAddress.parse("0000:01:00.0");
    private static final String KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIF9nUH9yZ2UtdGVzdC1rZXktMDAwMDAwMDAwMDAw alice@laptop";
    private Stage owner;
    private GuiFixture fx;
    private ConnectionInfo demo;

    @Start
    void start(Stage stage) {
        owner = stage;
    }

    @BeforeEach
    void lab() throws Exception {
        AtomicReference<Exception> failed = new AtomicReference<>();
        WaitForAsyncUtils.asyncFx(() -> {
            try {
                fx = WINDOW.closing(new GuiFixture(owner, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
                // what ui/shell/ShellFeatures links in the main window
                fx.ui.links().vmCreation(CreateVmWizard.creation(fx.ui, VmCreateServices.of(fx.app)));
            } catch (Exception e) {
                failed.set(e);
            }
        });
        WaitForAsyncUtils.waitForFxEvents();
        if (failed.get() != null) {
            throw failed.get();
        }
        demo = fx.app.connections().addDemo("Demo lab");
        DemoLabGpus.freeTrain01sGpu(fx.app, demo); // the card goes to the new VM: train-01 gives it up first
    }

    private static void waitFor(String what, Callable<Boolean> c) throws Exception {
        Eventually.untilHolds(what, Duration.ofSeconds(60), c::call);
    }

    private static String title(FxRobot robot) {
        return onFx(() -> robot.lookup("#pt-title").queryAs(Label.class).getText());
    }

    private static void fire(FxRobot robot, String id) throws Exception {
        waitFor(id + " to be enabled", () -> robot.lookup(id).tryQueryAs(Button.class)
                .map(b -> !b.isDisabled() && b.isVisible()).orElse(false));
        robot.interact(() -> robot.lookup(id).queryAs(Button.class).fire());
    }

    /** The texts of the VM wizard's GPU list, as its cells show them. */
    static List<String> gpuCells(FxRobot robot) {
        return onFx(() -> robot.from(robot.lookup("#vmc-gpus").<javafx.scene.Node>query()).lookup(".list-cell").queryAll().stream()
                .map(n -> ((javafx.scene.control.Labeled) n).getText()).filter(t -> t != null).toList());
    }

    /** Something to check on a page of the VM wizard. */
    @FunctionalInterface
    interface PageCheck {
        void check() throws Exception;
    }

    /**
     * Walks the VM wizard, opened by the passthrough wizard, from its first page to "Created" (the ubuntu-cuda
     * template, {@code name}, 8 GiB, an SSH key, not started) and closes it; {@code atGpuPage} runs on its GPU page.
     */
    static void createInTheVmWizard(FxRobot robot, String name, PageCheck atGpuPage) throws Exception {
        waitFor("the VM wizard", () -> robot.lookup("#create-vm-wizard").tryQuery().isPresent());
        fire(robot, "#vmc-next");
        @SuppressWarnings("unchecked")
        ListView<VmTemplate> templates = robot.lookup("#vmc-templates").queryAs(ListView.class);
        waitFor("the templates", () -> onFx(() -> !templates.getItems().isEmpty()));
        robot.interact(() -> templates.getSelectionModel().select(templates.getItems().stream()
                .filter(t -> t.id().equals("ubuntu-cuda")).findFirst().orElseThrow()));
        fire(robot, "#vmc-next");
        robot.interact(() -> robot.lookup("#vmc-name").queryAs(TextField.class).setText(name));
        fire(robot, "#vmc-next");
        robot.interact(() -> {
            @SuppressWarnings("unchecked")
            Spinner<Integer> memory = robot.lookup("#vmc-memory").queryAs(Spinner.class);
            memory.getValueFactory().setValue(8192);
        });
        fire(robot, "#vmc-next");
        fire(robot, "#vmc-next");
        robot.interact(() -> robot.lookup("#vmc-sshkeys").queryAs(TextArea.class).setText(KEY));
        fire(robot, "#vmc-next");
        atGpuPage.check();
        fire(robot, "#vmc-next");
        robot.interact(() -> robot.lookup("#vmc-start").queryAs(CheckBox.class).setSelected(false));
        fire(robot, "#vmc-next");
        waitFor("the VM to be created", () -> onFx(() -> robot.lookup("#vmc-status").queryAs(Label.class).getText())
                .startsWith("Created"));
        fire(robot, "#vmc-cancel");
    }

    private void toTheAttachPage(FxRobot robot) throws Exception {
        robot.interact(() -> PassthroughWizard.open(fx.ui, fx.passthrough(), owner, Optional.of(Preselection.node(demo, "pve-4090",
                Optional.of(GPU)))));
        waitFor("the readiness", () -> robot.lookup("#pt-message").tryQuery().isPresent());
        onFx(() -> robot.lookup("#pt-ack").tryQueryAs(CheckBox.class)).ifPresent(ack -> robot.interact(() ->
                ack.setSelected(true)));
        fire(robot, "#pt-next");
        waitFor("the attach page", () -> "Attach".equals(title(robot)) && robot.lookup("#pt-vms").tryQuery().isPresent());
    }

    @Test
    void aVmCreatedFromTheAttachPageGetsTheGpuAndTheWizardIsDone(FxRobot robot) throws Exception {
        toTheAttachPage(robot);
        fire(robot, "#pt-create-vm");
        createInTheVmWizard(robot, "made-for-the-gpu", () -> {
            // the node's host is the one the passthrough wizard used (the Demo lab's simulated host): checked, no link
            waitFor("the GPUs' verdicts", () -> gpuCells(robot).stream().anyMatch(t -> t.contains("passthrough: ")
                    && !t.contains("not checked")));
            assertThat(gpuCells(robot)).filteredOn(t -> t.contains("passthrough: "))
                    .noneMatch(t -> t.contains("not checked"));
        });

        waitFor("the done page", () -> "Done".equals(title(robot)) && robot.lookup("#pt-changes").tryQuery().isPresent());
        List<VmInfo> made = fx.app.sessions().of(demo).inventory().vms().stream()
                .filter(v -> v.name().equals("made-for-the-gpu")).toList();
        assertThat(made).singleElement().satisfies(v -> assertThat(fx.app.sessions().of(demo).readConfig(v.ref())
                .details().hostDevices()).as("the GPU is the new VM's").contains(GPU));
        assertThat(onFx(() -> robot.lookup("#pt-changes").queryAs(javafx.scene.Parent.class)
                .getChildrenUnmodifiable().size())).isPositive();
    }

    @Test
    void closingTheVmWizardWithoutAVmLeavesTheAttachPageAsItWas(FxRobot robot) throws Exception {
        toTheAttachPage(robot);
        int before = onFx(() -> robot.lookup("#pt-vms").queryAs(ListView.class).getItems().size());
        fire(robot, "#pt-create-vm");
        waitFor("the VM wizard", () -> robot.lookup("#create-vm-wizard").tryQuery().isPresent());
        robot.interact(() -> ((Stage) robot.lookup("#create-vm-wizard").query().getScene().getWindow()).close());
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(title(robot)).isEqualTo("Attach");
        assertThat(onFx(() -> robot.lookup("#pt-vms").queryAs(ListView.class).getItems().size())).isEqualTo(before);
    }
}
