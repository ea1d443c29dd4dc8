package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.common.TaskMonitor;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.application.Application;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.MenuBar;
import javafx.scene.control.TextArea;
import javafx.scene.control.TreeView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

@Tag("ui")
class MainWindowTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;
    private Stage stage;

    @Start
    void start(Stage stage) throws Exception {
        this.stage = stage;
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
    }

    private static void waitUntil(java.util.concurrent.Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, condition);
    }

    /** A label's text, read on the FX thread (labels are bound to what the FX thread sets, and evaluated there). */
    private static String text(FxRobot robot, String id) {
        return onFx(() -> robot.lookup(id).queryAs(Label.class).getText());
    }

    @Test
    void showsThisComputerWithItsFacts(FxRobot robot) throws Exception {
        waitUntil(() -> text(robot, "#fact-kernel").startsWith("6.8"));
        assertThat(stage.getTitle()).isEqualTo("GPUForge");
        assertThat(text(robot, "#host-title")).isEqualTo("This computer");
        assertThat(text(robot, "#host-hostname")).isEqualTo("pve-gpu1");
        assertThat(text(robot, "#fact-os")).isEqualTo("Debian GNU/Linux 12 (bookworm)");
        assertThat(text(robot, "#fact-kernel")).isEqualTo("6.8.12-4-pve (x86_64)");
        assertThat(text(robot, "#fact-cpu")).isEqualTo("AMD EPYC 7443P 24-Core Processor · 8 threads");
        assertThat(text(robot, "#fact-memory")).isEqualTo("125.0 GiB");
        assertThat(text(robot, "#fact-iommu")).startsWith("Populated: 8 groups");
        assertThat(onFx(() -> List.copyOf(robot.lookup("#fact-iommu").queryAs(Label.class).getStyleClass())))
                .contains("badge-ok");

        @SuppressWarnings("unchecked")
        TreeView<io.gpuforge.ui.common.NavItem> tree = robot.lookup("#navigation").queryAs(TreeView.class);
        waitUntil(() -> tree.getRoot().getChildren().get(0).getChildren().size() == 1);
        assertThat(onFx(() -> tree.getRoot().getChildren().get(0).getChildren().get(0).getValue().label()))
                .isEqualTo("pve-gpu1");
        waitUntil(() -> fx.ui.taskMonitor().entries().stream()
                .anyMatch(e -> e.name().equals("Read the facts of this computer")
                        && e.state() == TaskMonitor.State.SUCCEEDED));
    }

    @Test
    void theIommuTabShowsGroupsColouredByIsolation(FxRobot robot) throws Exception {
        robot.interact(() -> robot.lookup(".host-page").queryAs(io.gpuforge.ui.host.HostPage.class).showIommu());
        waitUntil(() -> text(robot, "#iommu-state").startsWith("8 IOMMU groups, 4 GPUs"));
        assertThat(text(robot, "#iommu-state")).endsWith("IOMMU: active");
        @SuppressWarnings("unchecked")
        javafx.scene.control.TreeTableView<Object> table = robot.lookup("#iommu-table").queryAs(javafx.scene.control.TreeTableView.class);
        assertThat(onFx(() -> List.copyOf(table.getRoot().getChildren()))).hasSize(8);
        var gpuGroup = onFx(() -> table.getRoot().getChildren().get(0)); // GPU groups first
        assertThat(onFx(() -> table.getColumns().get(0).getCellData(gpuGroup))).isEqualTo("Group 40");
        assertThat(onFx(() -> table.getColumns().get(3).getCellData(gpuGroup))).isEqualTo("GPU, isolated");
        var gpu = onFx(() -> gpuGroup.getChildren().get(0));
        assertThat(onFx(() -> table.getColumns().get(0).getCellData(gpu))).isEqualTo("0000:81:00.0");
        assertThat(onFx(() -> table.getColumns().get(2).getCellData(gpu))).isEqualTo("10de:2204");
        assertThat(onFx(() -> table.getColumns().get(4).getCellData(gpu))).isEqualTo("vfio-pci");
        robot.interact(() -> table.scrollTo(table.getRow(gpuGroup)));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(onFx(() -> robot.lookup(".iso-isolated").queryAll())).isNotEmpty();
        assertThat(onFx(() -> robot.lookup(".iso-shared").queryAll())).isEmpty();
        @SuppressWarnings("unchecked")
        TreeView<io.gpuforge.ui.common.NavItem> tree = robot.lookup("#navigation").queryAs(TreeView.class);
        var node = onFx(() -> tree.getRoot().getChildren().get(0).getChildren().get(0));
        assertThat(onFx(() -> List.copyOf(node.getChildren()))).extracting(t -> t.getValue().label()).containsExactly(
                "GeForce RTX 3090 · 81:00.0", "GeForce RTX 3090 · 82:00.0",
                "GeForce RTX 3090 · c1:00.0", "GeForce RTX 3090 · c2:00.0");
    }

    @Test
    void menusCarryTheShortcuts(FxRobot robot) {
        MenuBar bar = robot.lookup("#menu-bar").queryAs(MenuBar.class);
        assertThat(bar.getMenus()).extracting(m -> m.getText()).containsExactly("File", "View", "Tools", "Help");
        var items = bar.getMenus().stream().flatMap(m -> m.getItems().stream())
                .filter(i -> i.getId() != null).collect(java.util.stream.Collectors.toMap(i -> i.getId(), i -> i));
        assertThat(items.get("action.refresh").getAccelerator().getName()).isEqualTo("F5");
        assertThat(items.get("action.quit").getAccelerator().getDisplayText()).contains("Q");
        assertThat(items.get("action.preferences").getAccelerator()).isNotNull();
        assertThat(items.get("action.passthrough").getAccelerator()).isNotNull();
        assertThat(items.get("action.createVm").getAccelerator()).isNotNull();
        assertThat(items.get("action.gpuMonitor").getAccelerator()).isNotNull();
        assertThat(items.get("action.addConnection").getAccelerator()).isNotNull();
    }

    @Test
    void f5ReadsTheHostAgain(FxRobot robot) throws Exception {
        waitUntil(() -> fx.ui.taskMonitor().running() == 0 && !fx.ui.taskMonitor().entries().isEmpty());
        long before = fx.ui.taskMonitor().entries().stream().filter(e -> e.name().startsWith("Read the facts")).count();
        robot.clickOn("#navigation");
        robot.type(KeyCode.F5);
        waitUntil(() -> fx.ui.taskMonitor().entries().stream().filter(e -> e.name().startsWith("Read the facts"))
                .count() == before + 1);
    }

    /** The tasks panel lists what the user's actions started, not the window loading its own logs (issue 61). */
    @Test
    void theTasksPanelLeavesOutTheWindowsOwnUpkeep(FxRobot robot) throws Exception {
        waitUntil(() -> fx.ui.taskMonitor().running() == 0 && fx.ui.taskMonitor().entries().stream()
                .anyMatch(e -> e.name().equals("Load the event log")));
        @SuppressWarnings("unchecked")
        javafx.scene.control.TableView<TaskMonitor.Entry> table =
                robot.lookup("#tasks-table").queryAs(javafx.scene.control.TableView.class);
        List<String> shown = onFx(() -> table.getItems().stream().map(TaskMonitor.Entry::name)
                .toList());
        assertThat(shown).isNotEmpty().doesNotContain("Load the task log", "Load the event log")
                .anyMatch(n -> n.startsWith("Read the facts"));
    }

    @Test
    void preferencesSwitchThemeAndLanguageLive(FxRobot robot) throws Exception {
        waitUntil(() -> text(robot, "#fact-kernel").startsWith("6.8"));
        robot.interact(() -> fx.window.showPreferences());
        DialogPane prefs = robot.lookup("#preferences").queryAs(DialogPane.class);
        assertThat(prefs.getScene().getWindow().isShowing()).isTrue();
        assertThat(Application.getUserAgentStylesheet()).contains("primer-light");

        @SuppressWarnings("unchecked")
        ChoiceBox<ThemeChoice> theme = robot.lookup("#prefs-theme").queryAs(ChoiceBox.class);
        robot.interact(() -> theme.setValue(ThemeChoice.DARK));
        waitUntil(() -> Application.getUserAgentStylesheet().contains("primer-dark"));
        assertThat(onFx(() -> fx.ui.theme().isDark())).isTrue();

        @SuppressWarnings("unchecked")
        ChoiceBox<LanguageChoice> language = robot.lookup("#prefs-language").queryAs(ChoiceBox.class);
        robot.interact(() -> language.setValue(LanguageChoice.CHINESE_SIMPLIFIED));
        waitUntil(() -> text(robot, "#host-title").equals("本机"));
        MenuBar bar = robot.lookup("#menu-bar").queryAs(MenuBar.class);
        assertThat(onFx(() -> bar.getMenus().stream().map(m -> m.getText()).toList()))
                .containsExactly("文件", "视图", "工具", "帮助");
        assertThat(text(robot, "#fact-iommu")).startsWith("已填充");
        assertThat(onFx(() -> ((javafx.stage.Stage) prefs.getScene().getWindow()).getTitle())).isEqualTo("首选项");

        robot.interact(() -> prefs.getScene().getWindow().hide());
        fx.app.settings().flush();
        String saved = java.nio.file.Files.readString(fx.app.paths().settingsFile());
        assertThat(saved).contains("\"DARK\"").contains("\"CHINESE_SIMPLIFIED\"");
    }

    @Test
    void vaultCanBeSetUpFromPreferences(FxRobot robot) throws Exception {
        robot.interact(() -> fx.window.showPreferences());
        assertThat(text(robot, "#prefs-secrets-state")).contains("not set up");
        robot.clickOn("#prefs-vault-setup");
        robot.clickOn("#secret-field").write("a long passphrase").type(KeyCode.ENTER);
        robot.clickOn("#secret-field").write("a long passphrase").type(KeyCode.ENTER);
        waitUntil(() -> text(robot, "#prefs-secrets-state").contains("unlocked"));
        assertThat(text(robot, "#prefs-secrets-message")).isEqualTo("The vault is set up and unlocked.");
        assertThat(fx.app.paths().vaultFile()).exists();
        robot.clickOn("#prefs-vault-lock");
        assertThat(text(robot, "#prefs-secrets-state")).isEqualTo("Encrypted vault: locked");
    }

    @Test
    void windowGeometryIsRemembered(FxRobot robot) throws Exception {
        robot.interact(() -> {
            stage.setX(40);
            stage.setY(30);
            stage.setWidth(1000);
            stage.setHeight(700);
        });
        var w = fx.app.settings().current().window();
        assertThat(w).isNotNull();
        assertThat(w.x()).isEqualTo(40);
        assertThat(w.width()).isEqualTo(1000);
        assertThat(w.height()).isEqualTo(700);
    }

    @Test
    void anUnhandledTaskErrorShowsAShortMessageWithCopyableDetails(FxRobot robot) throws Exception {
        robot.interact(() -> fx.ui.tasks().supply("failing", () -> {
            throw new IllegalStateException("disk on fire");
        }).start());
        waitUntil(() -> robot.lookup("#error-dialog").tryQuery().isPresent());
        DialogPane pane = onFx(() -> robot.lookup("#error-dialog").queryAs(DialogPane.class));
        assertThat(onFx(pane::getContentText)).isEqualTo("GPUForge hit an unexpected error: disk on fire");
        TextArea details = onFx(() -> (TextArea) pane.getExpandableContent().lookup("#error-details"));
        assertThat(onFx(() -> details.getText())).contains("java.lang.IllegalStateException: disk on fire")
                .contains("MainWindowTest");
        Window w = pane.getScene().getWindow();
        robot.interact(w::hide);
        waitUntil(() -> fx.ui.taskMonitor().entries().stream()
                .anyMatch(e -> e.name().equals("failing") && e.state() == TaskMonitor.State.FAILED));
    }
}
