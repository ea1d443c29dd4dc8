package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.child;
import static io.gpuforge.ui.ConsoleGuiTest.connection;
import static io.gpuforge.ui.ConsoleGuiTest.labels;
import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static io.gpuforge.ui.ConsoleGuiTest.select;
import static io.gpuforge.ui.ConsoleGuiTest.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.tasks.TaskRecord;
import io.gpuforge.hypervisor.libvirt.LibvirtCloneTest;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.common.NavItem;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeItem;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * A VM on a libvirt host is cloned from its VM page (libvirt's test driver, a pool holding the VM's disk): the
 * dialog offers no linked clone (libvirt has no template VMs), the clone appears in the tree beside its source, and
 * the task log records it.
 */
@Tag("ui")
class LibvirtCloneGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    @TempDir
    Path dir;
    private GuiFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
    }

    @Test
    void aLibvirtVmIsClonedFromItsPageAndTheCloneJoinsTheTree(FxRobot robot) throws Exception {
        String uri = LibvirtCloneTest.hostUri(dir, Files.createDirectories(dir.resolve("pool")));
        GuiFixture.openAddConnection(robot, 1);
        robot.interact(() -> robot.lookup("#conn-name").queryAs(TextField.class).setText("kvm-lab"));
        robot.interact(() -> robot.lookup("#conn-uri").queryAs(TextField.class).setText(uri));
        robot.interact(() -> robot.lookup("#conn-save").queryAs(Button.class).fire());
        waitUntil(() -> connection(robot).map(c -> !c.getChildren().isEmpty()).orElse(false));
        TreeItem<NavItem> kvm = connection(robot).orElseThrow();
        TreeItem<NavItem> host = onFx(() -> kvm.getChildren().get(0));
        waitUntil(() -> labels(host).stream().anyMatch(l -> l.contains("cuda-base")));

        select(robot, child(host, l -> l.contains("cuda-base")));
        waitUntil(() -> robot.lookup("#vm-clone").tryQuery().map(n -> !n.isDisabled()).orElse(false));
        robot.interact(() -> robot.lookup("#vm-clone").queryAs(Button.class).fire());
        waitUntil(() -> robot.lookup("#clone-name").tryQuery().isPresent());
        assertThat(onFx(() -> robot.lookup("#clone-full").queryAs(CheckBox.class).isVisible()))
                .as("libvirt has no linked clones to offer").isFalse();
        robot.interact(() -> robot.lookup("#clone-name").queryAs(TextField.class).setText("cuda-worker-2"));
        robot.interact(() -> robot.lookup("#confirm-ok").queryAs(Button.class).fire());

        waitUntil(() -> labels(host).stream().anyMatch(l -> l.contains("cuda-worker-2")));
        assertThat(labels(host)).anyMatch(l -> l.contains("cuda-base"));
        waitUntil(() -> fx.app.taskLog().recent(10).stream().anyMatch(t -> t.action().equals("vm.clone")
                && t.status() == TaskRecord.Status.OK));
        select(robot, child(host, l -> l.contains("cuda-worker-2")));
        waitUntil(() -> ConsoleGuiTest.text(robot, "#vm-state").equals("stopped"));
    }
}
