package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static io.gpuforge.ui.ConsoleGuiTest.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.testing.TcpProxy;
import io.gpuforge.ui.common.NavItem;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import javafx.geometry.Point2D;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.PasswordField;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TreeItem;
import javafx.scene.input.ContextMenuEvent;
import javafx.scene.Node;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A Proxmox VE connection in the real window, against the simulator behind a TCP proxy: a wrong token is shown on
 * its field, a token without {@code Mapping.Modify} is reported by "Test connection", the connection that drops
 * shows "reconnecting…" in the tree and comes back by itself; the tree's context menus offer the other features'
 * entries once they are wired.
 */
@Tag("ui")
class ConsoleConnectionGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;
    private PveSimulator sim;
    private TcpProxy proxy;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
        sim = WINDOW.closing(new PveSimulator(SimCluster.demo()));
        proxy = WINDOW.closing(new TcpProxy("127.0.0.1", Integer.parseInt(sim.url().substring(sim.url().lastIndexOf(':') + 1))));
    }

    /** A label's text, read on the FX thread (a test's result sets several of the form's labels in one go there). */
    private static String text(FxRobot robot, String id) {
        return onFx(() -> Objects.toString(robot.lookup(id).queryAs(Label.class).getText(), ""));
    }

    private void fill(FxRobot robot, String secret) {
        String token = sim.token();
        robot.interact(() -> {
            robot.lookup("#conn-name").queryAs(TextField.class).setText("lab-pve");
            robot.lookup("#conn-pve-url").queryAs(TextField.class).setText(proxy.httpsUrl());
            robot.lookup("#conn-token-id").queryAs(TextField.class).setText(token.substring(0, token.indexOf('=')));
            robot.lookup("#conn-token-secret").queryAs(PasswordField.class).setText(secret);
        });
    }

    private String secret() {
        return sim.token().substring(sim.token().indexOf('=') + 1);
    }

    private static void test(FxRobot robot) {
        robot.interact(() -> robot.lookup("#conn-test").queryAs(Button.class).fire());
    }

    @Test
    void aWrongTokenIsShownOnItsFieldAndAMissingPrivilegeIsReportedByTestConnection(FxRobot robot) throws Exception {
        fx.app.secrets().createVault("a long passphrase".toCharArray());
        sim.cluster().withhold(PveSimulator.TOKEN_ID, "Mapping.Modify");
        GuiFixture.openAddConnection(robot, 2);
        fill(robot, "00000000-0000-0000-0000-000000000000");
        test(robot);
        waitUntil(() -> robot.lookup("#conn-trust").queryAs(CheckBox.class).isVisible());
        robot.interact(() -> robot.lookup("#conn-trust").queryAs(CheckBox.class).setSelected(true));
        test(robot);
        waitUntil(() -> text(robot, "#conn-token-secret-problem").contains("refused the API token"));
        assertThat(onFx(() -> robot.lookup("#conn-token-secret-problem").queryAs(Label.class).isVisible())).isTrue();
        assertThat(text(robot, "#conn-token-id-problem")).as("the token id is right").isEmpty();

        robot.interact(() -> robot.lookup("#conn-token-secret").queryAs(PasswordField.class).setText(secret()));
        waitUntil(() -> text(robot, "#conn-token-secret-problem").isEmpty());
        test(robot);
        waitUntil(() -> text(robot, "#conn-test-result").startsWith("Proxmox VE 8.4"));
        assertThat(text(robot, "#conn-test-result")).contains("3 nodes").contains("Missing 1 privilege")
                .contains("Mapping.Modify");
        WaitForAsyncUtils.waitForFxEvents();
        GuiFixture.writePng(GuiFixture.snapshot(robot.lookup("#conn-test").queryAs(Button.class).getScene()),
                "console-connection-test-light-en.png");
        robot.interact(() -> robot.lookup("#conn-save").queryAs(Button.class).fire());
        waitUntil(() -> ConsoleGuiTest.connection(robot).map(c -> c.getChildren().size() == 3).orElse(false));
    }

    @Test
    void aDroppedConnectionShowsReconnectingInTheTreeAndComesBackByItself(FxRobot robot) throws Exception {
        fx.app.secrets().createVault("a long passphrase".toCharArray());
        GuiFixture.openAddConnection(robot, 2);
        fill(robot, secret());
        test(robot);
        waitUntil(() -> robot.lookup("#conn-trust").queryAs(CheckBox.class).isVisible());
        robot.interact(() -> robot.lookup("#conn-trust").queryAs(CheckBox.class).setSelected(true));
        robot.interact(() -> robot.lookup("#conn-save").queryAs(Button.class).fire());
        waitUntil(() -> ConsoleGuiTest.connection(robot).map(c -> c.getChildren().size() == 3).orElse(false));
        TreeItem<NavItem> lab = ConsoleGuiTest.connection(robot).orElseThrow();
        robot.interact(() -> lab.getChildren().get(0).setExpanded(true));

        proxy.cut();
        waitUntil(() -> cellText(robot, lab).contains("reconnecting"));
        assertThat(onFx(() -> List.copyOf(lab.getChildren()))).as("what was known stays in the tree").hasSize(3);
        assertThat(onFx(() -> lab.getChildren().get(0).isExpanded())).isTrue();
        proxy.restore();
        waitUntil(() -> cellText(robot, lab).equals("lab-pve"));
        waitUntil(() -> fx.app.events().recent(50).stream().anyMatch(e -> e.message().contains("Connected again")));
        assertThat(onFx(() -> lab.getChildren().get(0).isExpanded())).as("expansion survives").isTrue();
    }

    @Test
    void theTreesMenusOfferTheWizards(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = ConsoleGuiTest.addDemoLab(robot);
        TreeItem<NavItem> node = ConsoleGuiTest.child(lab, "pve-4090"::equals);
        TreeItem<NavItem> gpu = ConsoleGuiTest.child(node, l -> l.contains("02:00.0"));
        assertThat(menu(robot, gpu)).contains("menu-pass-through");
        assertThat(menu(robot, node)).contains("menu-create-vm", "menu-link");

        AtomicReference<GpuInfo> passed = new AtomicReference<>();
        AtomicReference<String> created = new AtomicReference<>();
        robot.interact(() -> {
            fx.window.onPassThroughGpu((c, g) -> passed.set(g));
            fx.window.onCreateVm((c, n) -> created.set(c.name() + "/" + n));
        });
        fire(robot, gpu, "menu-pass-through");
        fire(robot, node, "menu-create-vm");
        assertThat(passed.get().address().toString()).isEqualTo("0000:02:00.0");
        assertThat(passed.get().node()).isEqualTo("pve-4090");
        assertThat(created.get()).isEqualTo("Demo lab/pve-4090");
        List<String> vm = menu(robot, ConsoleGuiTest.child(node, l -> l.contains("train-01")));
        assertThat(vm).contains("menu-vm-stop", "menu-vm-console", "menu-vm-delete");
    }

    /**
     * A GPU's menu opens its charts (the monitor's charts tab with that GPU alone), and its Open goes to its node's
     * IOMMU view with its own row selected (issue 61).
     */
    @Test
    void aGpusMenuShowsItsChartsAndOpensItsOwnRow(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = ConsoleGuiTest.addDemoLab(robot);
        TreeItem<NavItem> node = ConsoleGuiTest.child(lab, "pve-4090"::equals);
        TreeItem<NavItem> gpu = ConsoleGuiTest.child(node, l -> l.contains("02:00.0"));
        assertThat(menu(robot, gpu)).startsWith("menu-open", "menu-gpu-charts");

        fire(robot, gpu, "menu-open");
        waitUntil(() -> onFx(() -> robot.lookup("#iommu-table").queryAll().stream().filter(Node::isVisible)
                .map(n -> (javafx.scene.control.TreeTableView<?>) n).anyMatch(t -> t.getSelectionModel()
                        .getSelectedItem() != null && String.valueOf(t.getSelectionModel().getSelectedItem()
                        .getValue()).contains("0000:02:00.0"))));

        fire(robot, gpu, "menu-gpu-charts");
        waitUntil(() -> onFx(() -> robot.lookup("#monitor-gpus").tryQuery().isPresent()));
        waitUntil(() -> onFx(() -> chosen(robot)).equals(List.of("RTX 4090 · pve-4090 02:00.0")));
    }

    /** The GPUs ticked in the monitor's picker, as it names them. */
    private static List<String> chosen(FxRobot robot) {
        List<String> out = new java.util.ArrayList<>();
        for (Node n : robot.lookup("#monitor-gpus .list-cell").queryAll()) {
            javafx.scene.control.ListCell<?> cell = (javafx.scene.control.ListCell<?>) n;
            if (cell.getGraphic() instanceof javafx.scene.control.CheckBox b && b.isSelected() && cell.getText() != null) {
                out.add(cell.getText());
            }
        }
        return out;
    }

    /** Right-clicks the item's cell and lists the ids of the context menu's items; closes the menu. */
    private static List<String> menu(FxRobot robot, TreeItem<NavItem> item) throws Exception {
        ContextMenu m = open(robot, item);
        List<String> ids = m.getItems().stream().map(MenuItem::getId).filter(id -> id != null)
                .collect(Collectors.toList());
        robot.interact(m::hide);
        return ids;
    }

    private static void fire(FxRobot robot, TreeItem<NavItem> item, String id) throws Exception {
        ContextMenu m = open(robot, item);
        MenuItem mi = m.getItems().stream().filter(i -> id.equals(i.getId())).findFirst()
                .orElseThrow(() -> new AssertionError("no " + id));
        robot.interact(() -> {
            mi.fire();
            m.hide();
        });
    }

    static ContextMenu open(FxRobot robot, TreeItem<NavItem> item) throws Exception {
        robot.interact(() -> {
            ConsoleGuiTest.tree(robot).getSelectionModel().select(item);
            ConsoleGuiTest.tree(robot).scrollTo(ConsoleGuiTest.tree(robot).getRow(item));
        });
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(() -> {
            TreeCell<NavItem> c = cell(robot, item);
            Point2D at = c.localToScreen(10, 5);
            c.fireEvent(new ContextMenuEvent(ContextMenuEvent.CONTEXT_MENU_REQUESTED, 10, 5, at.getX(), at.getY(),
                    false, null));
        });
        waitUntil(() -> contextMenu(robot) != null);
        return contextMenu(robot);
    }

    private static ContextMenu contextMenu(FxRobot robot) {
        for (Window w : robot.listWindows()) {
            if (w instanceof ContextMenu && w.isShowing() && "navigation-menu".equals(((ContextMenu) w).getId())) {
                return (ContextMenu) w;
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static TreeCell<NavItem> cell(FxRobot robot, TreeItem<NavItem> item) {
        return robot.lookup(".tree-cell").queryAll().stream().map(n -> (TreeCell<NavItem>) n)
                .filter(c -> c.getTreeItem() == item && c.isVisible()).findFirst()
                .orElseThrow(() -> new AssertionError("no cell for " + item.getValue().label()));
    }

    private static String cellText(FxRobot robot, TreeItem<NavItem> item) {
        AtomicReference<String> out = new AtomicReference<>("");
        // the row's label (the cell draws it in its graphic; screen readers get it as the accessible text)
        robot.interact(() -> out.set(cell(robot, item).getAccessibleText().strip()));
        return out.get();
    }
}
