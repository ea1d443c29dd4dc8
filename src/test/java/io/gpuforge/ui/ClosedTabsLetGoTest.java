package io.gpuforge.ui;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.Eventually;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.host.HostPage;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TreeView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A closed tab's view lets go of the long-lived models and strings it listened to: reopening a page many times does
 * not pile up views that stay reachable (they would keep listening, and leak).
 */
@Tag("ui")
class ClosedTabsLetGoTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
    }

    @Test
    void viewsOfClosedTabsAreCollected(FxRobot robot) throws Exception {
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS,
                () -> robot.lookup("#fact-kernel").queryAs(Label.class).getText().startsWith("6.8"));
        List<WeakReference<HostPage>> closed = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            TabPane tabs = robot.lookup("#content-tabs").queryAs(TabPane.class);
            robot.interact(() -> {
                Tab t = tabs.getTabs().stream().filter(x -> "tab-local".equals(x.getId())).findFirst().orElseThrow();
                closed.add(new WeakReference<>((HostPage) t.getContent()));
                ((HostPage) t.getContent()).showIommu();
                tabs.getTabs().remove(t);
                t.getOnClosed().handle(null);
            });
            // reopen: This computer selected again in the tree (F5 in between, so the models keep changing)
            robot.interact(() -> fx.window.refresh());
            @SuppressWarnings("unchecked")
            TreeView<Object> tree = robot.lookup("#navigation").queryAs(TreeView.class);
            robot.interact(() -> {
                tree.getSelectionModel().clearSelection();
                tree.getSelectionModel().select(tree.getRoot().getChildren().get(0));
            });
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> robot.lookup("#content-tabs").queryAs(TabPane.class)
                    .getTabs().stream().anyMatch(x -> "tab-local".equals(x.getId())));
        }
        Eventually.until("the views of the closed tabs collected", Duration.ofSeconds(10), () -> {
            System.gc();
            return closed.stream().allMatch(r -> r.get() == null);
        });
    }
}
