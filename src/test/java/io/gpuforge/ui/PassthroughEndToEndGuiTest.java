package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.child;
import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.testing.Eventually;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.common.NavItem;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TreeItem;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The whole one-click path as a new user walks it in the real main window, without leaving the wizard: the welcome
 * page → Try the Demo lab → pve-3090 → its RTX 3090 → Pass through to VM… → Readiness → Plan → Apply → Reboot →
 * Verify → Attach → Create a VM… (the VM wizard on pve-3090) → Done → Start the VM → the guest sees the card.
 */
@Tag("ui")
class PassthroughEndToEndGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private static final PciAddress GPU = PciAddress.parse("0000:02:00.0");
    private GuiFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH, true));
    }

    private static void waitFor(String what, Callable<Boolean> c) throws Exception {
        Eventually.untilHolds(what, Duration.ofSeconds(60), c::call);
    }

    private static void fire(FxRobot robot, String id) throws Exception {
        waitFor(id + " to be enabled", () -> onFx(() -> robot.lookup(id).tryQueryAs(Button.class)
                .map(b -> !b.isDisabled() && b.isVisible()).orElse(false)));
        robot.interact(() -> robot.lookup(id).queryAs(Button.class).fire());
    }

    private static String title(FxRobot robot) {
        return onFx(() -> robot.lookup("#pt-title").tryQueryAs(Label.class).map(Label::getText).orElse(""));
    }

    private static void page(FxRobot robot, String title) throws Exception {
        waitFor("the " + title + " page", () -> title.equals(title(robot)));
    }

    /** The wizard's page in the light theme and in the dark one (switched as Preferences switches it). */
    private void shots(FxRobot robot, String name) throws Exception {
        for (ThemeChoice t : new ThemeChoice[] {ThemeChoice.DARK, ThemeChoice.LIGHT}) {
            robot.interact(() -> fx.ui.theme().apply(t));
            WaitForAsyncUtils.waitForFxEvents();
            GuiFixture.writePng(GuiFixture.snapshot(robot.lookup("#passthrough-wizard").query().getScene()),
                    name + "-" + t.name().toLowerCase(java.util.Locale.ROOT) + "-en.png");
        }
    }

    @Test
    void fromTheWelcomePageToARunningVmWithTheGpu(FxRobot robot) throws Exception {
        waitFor("the welcome page", () -> robot.lookup("#welcome-demoLab").tryQuery().isPresent());
        robot.interact(() -> robot.lookup("#welcome-demoLab").queryAs(Button.class).fire());
        waitFor("the Demo lab in the tree", () -> ConsoleGuiTest.connection(robot)
                .map(c -> c.getChildren().size() == 3).orElse(false));
        TreeItem<NavItem> lab = ConsoleGuiTest.connection(robot).orElseThrow();
        ConnectionInfo demo = lab.getValue().connection().orElseThrow();
        fx.app.demoLab().host("pve-3090").orElseThrow().rebootTakes(Duration.ofMillis(400)).lineDelay(Duration.ZERO)
                .waitLimit(Duration.ofSeconds(20));
        waitFor("pve-3090's GPUs", () -> ConsoleGuiTest.labels(child(lab, "pve-3090"::equals)).stream()
                .anyMatch(l -> l.contains("RTX 3090") && l.contains("02:00.0")));
        TreeItem<NavItem> card = child(child(lab, "pve-3090"::equals), l -> l.contains("RTX 3090") && l.contains("02:00.0"));
        ContextMenu menu = ConsoleConnectionGuiTest.open(robot, card);
        MenuItem pass = onFx(() -> menu.getItems().stream().filter(m -> "menu-pass-through".equals(m.getId())).findFirst())
                .orElseThrow(() -> new AssertionError("no Pass through on the GPU"));
        robot.interact(() -> {
            pass.fire();
            menu.hide();
        });

        page(robot, "Readiness");
        assertThat(onFx(() -> robot.lookup("#pt-ack").tryQuery())).as("nothing to acknowledge").isEmpty();
        fire(robot, "#pt-next");
        page(robot, "Plan");
        fire(robot, "#pt-next");
        page(robot, "Apply");
        fire(robot, "#pt-next");
        page(robot, "Reboot");
        fire(robot, "#pt-reboot-now");
        fire(robot, "#pt-next");
        page(robot, "Verify");
        fire(robot, "#pt-next");
        page(robot, "Attach");
        shots(robot, "wizard-8-attach-novm");

        fire(robot, "#pt-create-vm");
        // the GPU the passthrough wizard has just prepared and verified, with no second link step
        PassthroughCreateVmGuiTest.createInTheVmWizard(robot, "gpu-from-the-wizard", () -> waitFor("the GPU's verdict",
                () -> PassthroughCreateVmGuiTest.gpuCells(robot).stream()
                        .anyMatch(t -> t.contains("0000:02:00.0") && t.contains("ready (verified at "))));

        page(robot, "Done");
        List<VmInfo> made = fx.app.sessions().of(demo).inventory().vms().stream()
                .filter(v -> v.name().equals("gpu-from-the-wizard")).toList();
        assertThat(made).singleElement().satisfies(v -> assertThat(fx.app.sessions().of(demo).readConfig(v.ref())
                .details().hostDevices()).contains(GPU));
        fire(robot, "#pt-start-vm");
        waitFor("the guest's answer", () -> onFx(() -> robot.lookup("#pt-guest").queryAs(Label.class).getText())
                .contains("GPU 0: NVIDIA GeForce RTX 3090"));
        assertThat(fx.app.sessions().of(demo).inventory().vm(made.get(0).ref()).orElseThrow().state().name())
                .isEqualTo("RUNNING");
        shots(robot, "wizard-9-done-created");
    }
}
