package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.child;
import static io.gpuforge.ui.ConsoleGuiTest.labels;
import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static io.gpuforge.ui.ConsoleGuiTest.select;
import static io.gpuforge.ui.ConsoleGuiTest.text;
import static io.gpuforge.ui.ConsoleGuiTest.tree;
import static io.gpuforge.ui.ConsoleGuiTest.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.common.NavItem;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeItem;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The console's screenshots in the dark theme (tree, node page, VM page, task log) and its tree in Chinese, on the
 * Demo lab through the real window; each checks what it shows before it is written (the light ones come from
 * {@link ConsoleGuiTest}).
 */
@Tag("ui")
class ConsoleScreenshotGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private Stage stage;
    private GuiFixture fx;

    @Start
    void start(Stage s) {
        stage = s;
    }

    private void open(FxRobot robot, ThemeChoice theme, LanguageChoice language) throws Exception {
        robot.interact(() -> {
            try {
                fx = WINDOW.closing(new GuiFixture(stage, theme, language));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private void shot(String name) throws Exception {
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> fx.ui.taskMonitor().running() == 0);
        WaitForAsyncUtils.waitForFxEvents();
        GuiFixture.writePng(GuiFixture.snapshot(stage.getScene()), name);
    }

    @Test
    void theConsoleInTheDarkTheme(FxRobot robot) throws Exception {
        open(robot, ThemeChoice.DARK, LanguageChoice.ENGLISH);
        TreeItem<NavItem> lab = ConsoleGuiTest.addDemoLab(robot);
        TreeItem<NavItem> n4090 = child(lab, "pve-4090"::equals);
        robot.interact(() -> n4090.setExpanded(true));
        waitUntil(() -> labels(n4090).stream().anyMatch(l -> l.contains("VM 101")));
        shot("console-tree-dark-en.png");

        select(robot, child(lab, "pve-3090"::equals));
        waitUntil(() -> !text(robot, "#node-kernel").isEmpty());
        shot("console-node-dark-en.png");

        select(robot, child(n4090, l -> l.contains("train-01")));
        waitUntil(() -> text(robot, "#vm-machine").equals("q35"));
        shot("console-vm-dark-en.png");

        // a stop and a start, so the task log has what it shows
        robot.interact(() -> robot.lookup("#vm-stop").queryAs(Button.class).fire());
        waitUntil(() -> robot.lookup("#confirm-ok").tryQuery().isPresent());
        robot.interact(() -> robot.lookup("#confirm-ok").queryAs(Button.class).fire());
        waitUntil(() -> text(robot, "#vm-state").equals("stopped"));
        robot.interact(() -> robot.lookup("#vm-start").queryAs(Button.class).fire());
        waitUntil(() -> text(robot, "#vm-state").equals("running"));
        waitUntil(() -> robot.lookup("#task-log-table").queryAs(TableView.class).getItems().size() >= 2);
        robot.interact(fx.window::showTaskLog);
        shot("console-tasklog-dark-en.png");
    }

    @Test
    void theTreeInChinese(FxRobot robot) throws Exception {
        open(robot, ThemeChoice.LIGHT, LanguageChoice.CHINESE_SIMPLIFIED);
        TreeItem<NavItem> lab = ConsoleGuiTest.addDemoLab(robot);
        TreeItem<NavItem> n4090 = child(lab, "pve-4090"::equals);
        robot.interact(() -> n4090.setExpanded(true));
        waitUntil(() -> labels(n4090).stream().anyMatch(l -> l.contains("虚拟机 101") || l.contains("VM 101")));
        // "free" once the node's containers were read (until then one might share the card)
        waitUntil(() -> labels(n4090).stream().anyMatch(l -> l.contains("空闲")));
        assertThat(labels(n4090)).as("the GPUs' places in Chinese").anyMatch(l -> l.contains("空闲"));
        assertThat(onFx(() -> tree(robot).getRoot().getChildren().get(0).getValue().label()))
                .isEqualTo("connection.local");
        shot("console-tree-light-zh.png");
    }
}
