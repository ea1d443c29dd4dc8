package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.testing.GuiWindow;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The window as a new user first sees it: the welcome page in front, its Demo lab choice bringing the simulated
 * cluster into the tree, and every toolbar command opening its screen (none is disabled).
 */
@Tag("ui")
class FirstRunWindowTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;
    private Stage stage;

    @Start
    void start(Stage stage) throws Exception {
        this.stage = stage;
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH, true));
    }

    private static void waitUntil(Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, condition);
    }

    private static Tab selectedTab(FxRobot robot) {
        return robot.lookup("#content-tabs").queryAs(TabPane.class).getSelectionModel().getSelectedItem();
    }

    private long otherWindows() {
        return onFx(() -> Window.getWindows().stream().filter(w -> w != stage && w.isShowing()).count());
    }

    @Test
    void theWelcomePageIsInFrontAndItsDemoLabChoiceFillsTheTree(FxRobot robot) throws Exception {
        waitUntil(() -> selectedTab(robot) != null && "welcome".equals(selectedTab(robot).getId()));
        GuiFixture.writePng(GuiFixture.snapshot(stage.getScene()), "first-run-light-en.png");
        // the Demo lab card in view without scrolling, at the window's default size (issue 61)
        assertThat(onFx(() -> {
            javafx.scene.Node card = robot.lookup("#welcome-demoLab").query();
            javafx.scene.control.ScrollPane page = robot.lookup("#welcome-page").queryAs(
                    javafx.scene.control.ScrollPane.class);
            javafx.geometry.Bounds c = card.localToScreen(card.getBoundsInLocal());
            javafx.geometry.Bounds v = page.localToScreen(page.getLayoutBounds());
            return c.getMinY() >= v.getMinY() && c.getMaxY() <= v.getMaxY();
        })).as("the Demo lab card in view at %.0f×%.0f", stage.getWidth(), stage.getHeight()).isTrue();

        robot.interact(() -> robot.lookup("#welcome-demoLab").queryAs(Button.class).fire());
        waitUntil(() -> fx.app.connections().all().stream().anyMatch(c -> c.kind() == ConnectionInfo.Kind.DEMO));
        waitUntil(() -> robot.lookup("Demo lab").tryQuery().isPresent());
        // asked again, it does not add a second one
        robot.interact(() -> fx.window.showWelcome());
        robot.interact(() -> robot.lookup("#welcome-demoLab").queryAs(Button.class).fire());
        WaitForAsyncUtils.sleep(1, TimeUnit.SECONDS);
        assertThat(fx.app.connections().all().stream().filter(c -> c.kind() == ConnectionInfo.Kind.DEMO)).hasSize(1);
    }

    @Test
    void helpWelcomeReopensItAndTheToolbarsCommandsOpenTheirScreens(FxRobot robot) throws Exception {
        waitUntil(() -> selectedTab(robot) != null && "welcome".equals(selectedTab(robot).getId()));
        robot.interact(() -> selectedTab(robot).getTabPane().getTabs().remove(selectedTab(robot)));
        robot.interact(() -> menuItem(robot, "action.welcome").fire());
        waitUntil(() -> "welcome".equals(selectedTab(robot).getId()));

        for (String action : new String[] {"action.passthrough", "action.createVm", "action.gpuMonitor"}) {
            Button b = robot.lookup((Node n) -> ("tb-" + action).equals(n.getId())).queryAs(Button.class);
            assertThat(onFx(b::isDisabled)).as(action).isFalse();
            long before = otherWindows();
            robot.interact(b::fire);
            waitUntil(() -> otherWindows() == before + 1);
        }
        // the GPU monitor is one window, brought to the front when asked again
        long open = otherWindows();
        robot.interact(() -> robot.lookup((Node n) -> "tb-action.gpuMonitor".equals(n.getId())).queryAs(Button.class)
                .fire());
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(otherWindows()).isEqualTo(open);

        long before = otherWindows();
        robot.interact(() -> menuItem(robot, "action.analyseListing").fire());
        waitUntil(() -> otherWindows() == before + 1 && robot.lookup("#listing-text").tryQuery().isPresent());
    }

    private static MenuItem menuItem(FxRobot robot, String id) {
        return robot.lookup("#menu-bar").queryAs(MenuBar.class).getMenus().stream()
                .flatMap(m -> m.getItems().stream()).filter(i -> id.equals(i.getId())).findFirst().orElseThrow();
    }
}
