package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static io.gpuforge.testing.FxRead.texts;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.SimHost;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.testing.Eventually;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.passthrough.RollbackWindow;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * Rollback from a host on the Demo lab: pve-4090's plan that GPUForge applied days ago is listed from its backups,
 * its diff back shown, rolled back after a confirmation, the host rebooted (asked first) and the rollback verified.
 */
@Tag("ui")
class RollbackWindowGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private Stage owner;
    private GuiFixture fx;

    @Start
    void start(Stage stage) {
        owner = stage;
    }

    private static void waitFor(String what, Callable<Boolean> c) throws Exception {
        Eventually.untilHolds(what, Duration.ofSeconds(60), c::call);
    }

    /** Presses a button that asks for a confirmation, and confirms; returns what the confirmation said. */
    private static String pressAndConfirm(FxRobot robot, String button, String marker) throws Exception {
        Platform.runLater(() -> robot.lookup(button).queryAs(Button.class).fire());
        waitFor("the confirmation", () -> robot.lookup(".dialog-pane").queryAll().stream()
                .anyMatch(n -> String.valueOf(((DialogPane) n).getContentText()).contains(marker)));
        DialogPane d = onFx(() -> (DialogPane) robot.lookup(".dialog-pane").queryAll().stream()
                .filter(n -> String.valueOf(((DialogPane) n).getContentText()).contains(marker)).findFirst().orElseThrow());
        String text = onFx(d::getContentText);
        robot.interact(() -> ((Button) d.lookupButton(d.getButtonTypes().get(0))).fire());
        return text;
    }

    @Test
    void theHostsAppliedPlanIsListedShownAsADiffBackRolledBackRebootedAndVerified(FxRobot robot) throws Exception {
        AtomicReference<Stage> w = new AtomicReference<>();
        robot.interact(() -> {
            try {
                fx = WINDOW.closing(new GuiFixture(owner, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        ConnectionInfo demo = fx.app.connections().addDemo("Demo lab");
        SimHost host = fx.app.demoLab().host("pve-4090").orElseThrow().rebootTakes(Duration.ofMillis(400))
                .lineDelay(Duration.ZERO).waitLimit(Duration.ofSeconds(20));
        robot.interact(() -> w.set(RollbackWindow.open(fx.ui, fx.passthrough(), owner, new HostTarget.Linked(demo, "pve-4090"))));

        waitFor("the diff back", () -> robot.lookup("#pt-diff").tryQuery().isPresent());
        ListView<?> plans = robot.lookup("#rollback-plans").queryAs(ListView.class);
        assertThat(onFx(() -> List.copyOf(plans.getItems()))).hasSize(1);
        assertThat(onFx(() -> texts(robot.lookup("#rollback-detail").queryAs(Node.class)))).contains("restores")
                .contains("/etc/default/grub").contains("-GRUB_CMDLINE_LINUX_DEFAULT=\"quiet iommu=pt\"")
                .contains("+GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"");
        GuiFixture.writePng(GuiFixture.snapshot(w.get().getScene()), "rollback-light-en.png");
        assertThat(host.commands()).isEmpty();

        String asked = pressAndConfirm(robot, "#rollback-run", "Roll back ");
        assertThat(asked).contains("/etc/default/grub");
        waitFor("the rollback", () -> robot.lookup("#rollback-state").queryAs(Label.class).getText().contains("is rolled back"));
        assertThat(onFx(() -> List.<Object>copyOf(robot.lookup("#rollback-output").queryAs(ListView.class).getItems())))
                .anyMatch(l -> String.valueOf(l).contains("restoring /etc/default/grub"));
        assertThat(host.commands()).noneMatch(c -> c.command().startsWith("reboot"));

        pressAndConfirm(robot, "#rollback-reboot", "Reboot ");
        waitFor("the refusal", () -> robot.lookup("#rollback-state").queryAs(Label.class).getText()
                .contains("pve-4090 runs train-01 (VM 101): GPUForge does not reboot a node under running guests"));
        assertThat(host.commands()).as("not rebooted under train-01").noneMatch(c -> c.command().startsWith("reboot"));
        TaskOutcome stopped = fx.app.sessions().of(demo).vmAction(new VmRef("pve-4090", "101"), VmAction.STOP,
                TaskListener.none(), () -> false);
        assertThat(stopped.ok()).as(stopped.status()).isTrue();
        waitFor("the reboot offered again", () -> !robot.lookup("#rollback-reboot").queryAs(Button.class).isDisabled());
        pressAndConfirm(robot, "#rollback-reboot", "Reboot ");
        waitFor("the verify", () -> robot.lookup("#rollback-state").queryAs(Label.class).getText().contains("verified"));
        assertThat(onFx(() -> robot.lookup("#rollback-state").queryAs(Label.class).getText()))
                .startsWith("The host no longer has");
        assertThat(host.commands()).anyMatch(c -> c.command().startsWith("reboot"));
        assertThat(Files.readString(host.root().resolve("etc/default/grub"))).doesNotContain("iommu=pt");
        // the plans are listed again (the plan now rolled back); what the verify found is still said
        waitFor("the plans listed again", () -> onFx(() -> texts(robot.lookup("#rollback-detail").queryAs(Node.class)))
                .contains("rolled back already"));
        assertThat(onFx(() -> robot.lookup("#rollback-state").queryAs(Label.class).getText()))
                .startsWith("The host no longer has");
        GuiFixture.writePng(GuiFixture.snapshot(w.get().getScene()), "rollback-done-light-en.png");
    }
}
