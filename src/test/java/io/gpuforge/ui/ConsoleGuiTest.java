package io.gpuforge.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.tasks.TaskRecord;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.testing.FxRead;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.common.NavItem;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javafx.application.Platform;
import javafx.css.PseudoClass;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The admin console through the real window on the Demo lab: the tree lists the cluster's nodes, VMs and GPUs and
 * filters them; a VM's page shows its whole configuration and stops and starts it, each task in the task log; a
 * node's page shows its summary and its GPUs.
 */
@Tag("ui")
class ConsoleGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
    }

    static void waitUntil(Callable<Boolean> c) throws Exception {
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, c);
    }

    /** Adds the Demo lab through the dialog and waits until its nodes are in the tree. */
    static TreeItem<NavItem> addDemoLab(FxRobot robot) throws Exception {
        GuiFixture.openAddConnection(robot, 3);
        robot.interact(() -> robot.lookup("#conn-name").queryAs(TextField.class).setText("Demo lab"));
        robot.interact(() -> robot.lookup("#conn-save").queryAs(Button.class).fire());
        waitUntil(() -> connection(robot).map(c -> c.getChildren().size() == 3).orElse(false));
        TreeItem<NavItem> lab = connection(robot).orElseThrow();
        // the nodes' PCI devices are read once after the inventory: then every GPU is listed with its model
        waitUntil(() -> labels(child(lab, "pve-4090"::equals)).size() == 3);
        // each node's devices come in their own read: wait for pve-3090's too (under load they came after 4090's)
        waitUntil(() -> labels(child(lab, "pve-3090"::equals)).stream().anyMatch(l -> l.contains("RTX 3090")));
        return lab;
    }

    @SuppressWarnings("unchecked")
    static TreeView<NavItem> tree(FxRobot robot) {
        return robot.lookup("#navigation").queryAs(TreeView.class);
    }

    /** Reads what the window shows on the FX thread (the tree changes there while a test runs). */
    static <T> T onFx(Callable<T> read) {
        return FxRead.onFx(read);
    }

    static Optional<TreeItem<NavItem>> connection(FxRobot robot) {
        return onFx(() -> tree(robot).getRoot().getChildren().stream()
                .filter(t -> t.getValue().connection().isPresent()).findFirst());
    }

    static TreeItem<NavItem> child(TreeItem<NavItem> parent, Predicate<String> label) {
        return onFx(() -> parent.getChildren().stream().filter(t -> label.test(t.getValue().label())).findFirst())
                .orElseThrow(() -> new AssertionError("no item under " + parent.getValue().label() + " among "
                        + labels(parent)));
    }

    static List<String> labels(TreeItem<NavItem> parent) {
        return onFx(() -> parent.getChildren().stream().map(t -> t.getValue().label()).collect(Collectors.toList()));
    }

    static void select(FxRobot robot, TreeItem<NavItem> item) {
        robot.interact(() -> tree(robot).getSelectionModel().select(item));
    }

    /** A label's text, read on the FX thread: a page renders its labels and buttons in one go there. */
    static String text(FxRobot robot, String id) {
        return onFx(() -> robot.lookup(id).queryAll().stream().filter(Node::isVisible).map(n -> ((Label) n).getText())
                .reduce((a, b) -> b).orElse(""));
    }

    private static String lines(FxRobot robot, String id) {
        return onFx(() -> robot.lookup(id).queryAs(VBox.class).getChildren().stream().map(n -> ((Label) n).getText())
                .collect(Collectors.joining("\n")));
    }

    private static boolean disabled(FxRobot robot, String id) {
        return onFx(() -> robot.lookup(id).queryAs(Button.class).isDisabled());
    }

    @Test
    void theTreeShowsTheClustersNodesVmsAndGpusAndFiltersThem(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = addDemoLab(robot);
        assertThat(labels(lab)).containsExactly("pve-4090", "pve-3090", "pve-store");
        TreeItem<NavItem> n4090 = child(lab, "pve-4090"::equals);
        // which VM holds a GPU is known once the VMs' configurations are read, after the tree shows them
        waitUntil(() -> labels(n4090).contains("RTX 4090 · 01:00.0 → VM 101"));
        assertThat(labels(n4090)).anyMatch(l -> l.startsWith("101") && l.contains("train-01"))
                .anyMatch(l -> l.equals("RTX 4090 · 01:00.0 → VM 101"))
                .anyMatch(l -> l.contains("RTX 4090 · 02:00.0"));
        TreeItem<NavItem> n3090 = child(lab, "pve-3090"::equals);
        assertThat(labels(n3090)).anyMatch(l -> l.startsWith("9000") && l.contains("ubuntu-24.04-cloud"))
                .filteredOn(l -> l.contains("RTX 3090")).hasSize(4);
        TreeItem<NavItem> train = child(n4090, l -> l.contains("train-01"));
        select(robot, train);
        robot.interact(() -> tree(robot).getSelectionModel().select(train));

        TextField search = robot.lookup("#navigation-search").queryAs(TextField.class);
        robot.interact(() -> search.setText("train"));
        waitUntil(() -> labels(lab).equals(List.of("pve-4090")));
        assertThat(labels(child(lab, "pve-4090"::equals))).singleElement().asString().contains("train-01");
        assertThat(onFx(() -> tree(robot).getSelectionModel().getSelectedItem().getValue().label())).contains("train-01");
        robot.interact(() -> search.setText(""));
        waitUntil(() -> labels(lab).size() == 3);
        assertThat(onFx(() -> tree(robot).getSelectionModel().getSelectedItem().getValue().label()))
                .as("the selection stays through the filter").contains("train-01");
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> fx.ui.taskMonitor().running() == 0);
        GuiFixture.writePng(GuiFixture.snapshot(tree(robot).getScene()), "console-tree-light-en.png");
    }

    /** The visible row of {@code item} (its node expanded, scrolled to). FX data. */
    @SuppressWarnings("unchecked")
    static TreeCell<NavItem> shownCell(FxRobot robot, TreeItem<NavItem> item) throws Exception {
        robot.interact(() -> {
            item.getParent().setExpanded(true);
            tree(robot).scrollTo(tree(robot).getRow(item));
        });
        WaitForAsyncUtils.waitForFxEvents();
        return onFx(() -> robot.lookup(".tree-cell").queryAll().stream().map(n -> (TreeCell<NavItem>) n)
                .filter(c -> c.getTreeItem() == item && c.isVisible()).findFirst()
                .orElseThrow(() -> new AssertionError("no row shows " + item.getValue().label())));
    }

    @Test
    void aGpuRowFitsTheTreeAtItsDefaultWidthAndItsTooltipTellsTheRest(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = addDemoLab(robot);
        TreeItem<NavItem> n4090 = child(lab, "pve-4090"::equals);
        waitUntil(() -> labels(n4090).stream().anyMatch(l -> l.contains("01:00.0") && l.contains("VM 101")));
        TreeCell<NavItem> row = shownCell(robot, child(n4090, l -> l.contains("01:00.0")));
        double needed = onFx(() -> row.prefWidth(-1));
        // the tree's default width: 30 % of the window (WindowGeometry.DEFAULT_DIVIDER), less its vertical scroll bar
        double width = onFx(() -> 0.30 * tree(robot).getScene().getWidth()) - 16;
        assertThat(needed).as("the GPU's row needs no horizontal scrolling in the tree at its default width (%s px)",
                width).isLessThanOrEqualTo(width);
        // then, once the node's host was read, its use and driver
        assertThat(onFx(() -> row.getTooltip().getText()).split("\n")[0]).as("the tooltip has the whole label")
                .isEqualTo("GeForce RTX 4090 · 01:00.0 → VM 101 (mapping gpu-4090-a)");
    }

    /** A VM's row tells stylesheets its state by a pseudo-class (:running, :stopped, :template), a node's row none. */
    @Test
    void aVmsRowSaysItsStateToStylesheets(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = addDemoLab(robot);
        TreeItem<NavItem> n4090 = child(lab, "pve-4090"::equals);
        TreeItem<NavItem> n3090 = child(lab, "pve-3090"::equals);
        TreeCell<NavItem> train = shownCell(robot, child(n4090, l -> l.contains("train-01")));
        assertThat(onFx(() -> states(train))).containsExactly("running");
        TreeCell<NavItem> template = shownCell(robot, child(n3090, l -> l.startsWith("9000")));
        assertThat(onFx(() -> states(template))).containsExactly("template");
        TreeCell<NavItem> node = shownCell(robot, n3090);
        assertThat(onFx(() -> states(node))).isEmpty();
    }

    private static List<String> states(TreeCell<NavItem> row) {
        return row.getPseudoClassStates().stream().map(PseudoClass::getPseudoClassName)
                .filter(List.of("running", "stopped", "template")::contains).collect(Collectors.toList());
    }

    @Test
    @SuppressWarnings("unchecked")
    void theEmptyRowsBelowTheTreeShowNothing(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = addDemoLab(robot);
        robot.interact(() -> child(lab, "pve-4090"::equals).setExpanded(true));
        WaitForAsyncUtils.waitForFxEvents();
        List<TreeCell<NavItem>> empty = onFx(() -> robot.lookup(".tree-cell").queryAll().stream()
                .map(n -> (TreeCell<NavItem>) n).filter(c -> c.isVisible() && c.isEmpty()).collect(Collectors.toList()));
        assertThat(empty).as("the tree is taller than its rows").isNotEmpty();
        assertThat(onFx(() -> empty.stream().filter(c -> c.getDisclosureNode() != null && c.getDisclosureNode().isVisible()
                || c.getGraphic() != null && c.getGraphic().isVisible()).count())).as("empty rows with an arrow or an icon")
                .isZero();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theConnectionPagesVmTableShowsNoColumnTheInventoryLeavesEmpty(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = addDemoLab(robot);
        select(robot, lab);
        waitUntil(() -> robot.lookup("#domains-table").tryQuery().isPresent()
                && robot.lookup("#domains-table").queryAs(TableView.class).getItems().size() == 6);
        TableView<Object> table = robot.lookup("#domains-table").queryAs(TableView.class);
        List<String> empty = onFx(() -> table.getVisibleLeafColumns().stream()
                .filter(c -> table.getItems().stream().allMatch(i -> String.valueOf(c.getCellData(i)).isBlank()))
                .map(c -> c.getText()).collect(Collectors.toList()));
        assertThat(empty).as("columns with nothing in them (Proxmox lists no VM's machine, disks or NICs)").isEmpty();
        assertThat(onFx(() -> table.getVisibleLeafColumns().stream().map(c -> c.getText()).collect(Collectors.toList())))
                .contains("ID", "Name", "State");
    }

    @Test
    void aVmPageOffersToPassAGpuThroughAndToDetachItsOwn(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = addDemoLab(robot);
        select(robot, child(child(lab, "pve-4090"::equals), l -> l.contains("train-01")));
        waitUntil(() -> text(robot, "#vm-machine").equals("q35"));

        Platform.runLater(() -> robot.lookup("#vm-gpu-detach").queryAs(Button.class).fire());
        waitUntil(() -> robot.lookup(".dialog-pane").queryAll().stream()
                .anyMatch(n -> String.valueOf(((DialogPane) n).getContentText()).contains("away from VM 101")));
        DialogPane ask = onFx(() -> (DialogPane) robot.lookup(".dialog-pane").queryAll().stream()
                .filter(n -> String.valueOf(((DialogPane) n).getContentText()).contains("away from VM 101"))
                .findFirst().orElseThrow());
        assertThat(onFx(ask::getContentText)).contains("01:00.0");
        robot.interact(() -> ((Button) ask.lookupButton(ask.getButtonTypes().stream()
                .filter(b -> b.getButtonData().isCancelButton()).findFirst().orElseThrow())).fire());
        assertThat(fx.app.sessions().of(fx.app.connections().all().get(0)).readConfig(new VmRef("pve-4090", "101"))
                .details().hostDevices()).as("cancelled: nothing detached").isNotEmpty();

        long before = onFx(() -> Window.getWindows().stream().filter(Window::isShowing).count());
        robot.interact(() -> robot.lookup("#vm-gpu-add").queryAs(Button.class).fire());
        waitUntil(() -> robot.lookup("#passthrough-wizard").tryQuery().isPresent());
        assertThat(onFx(() -> Window.getWindows().stream().filter(Window::isShowing).count())).isEqualTo(before + 1);
    }

    @Test
    void aVmPageShowsItsConfigurationAndStopsAndStartsIt(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = addDemoLab(robot);
        select(robot, child(child(lab, "pve-4090"::equals), l -> l.contains("train-01")));
        waitUntil(() -> text(robot, "#vm-machine").equals("q35"));
        assertThat(text(robot, "#vm-firmware")).isEqualTo("uefi");
        assertThat(text(robot, "#vm-memory")).isEqualTo("64.0 GiB");
        assertThat(lines(robot, "#vm-disks")).contains("scsi0").contains("200.0 GiB").contains("efidisk0");
        assertThat(lines(robot, "#vm-nics")).contains("net0").contains("vmbr0");
        assertThat(lines(robot, "#vm-mappings")).contains("gpu-4090-a");
        assertThat(text(robot, "#vm-state")).isEqualTo("running");

        robot.interact(() -> robot.lookup("#vm-stop").queryAs(Button.class).fire());
        waitUntil(() -> robot.lookup("#confirm-ok").tryQuery().isPresent());
        robot.interact(() -> robot.lookup("#confirm-ok").queryAs(Button.class).fire());
        waitUntil(() -> text(robot, "#vm-state").equals("stopped"));
        waitUntil(() -> taskLog(robot).stream().anyMatch(t -> t.action().equals("vm.stop")
                && t.status() == TaskRecord.Status.OK));
        assertThat(disabled(robot, "#vm-start")).as("start, once the page says stopped").isFalse();
        assertThat(disabled(robot, "#vm-stop")).isTrue();
        assertThat(labels(child(lab, "pve-4090"::equals))).anyMatch(l -> l.contains("train-01"));
        // the tree follows the same inventory (its sync may land a pulse after the page's)
        waitUntil(() -> !child(child(lab, "pve-4090"::equals), l -> l.contains("train-01")).getValue().target()
                .flatMap(t -> t.vm()).orElseThrow().state().isRunning());

        robot.interact(() -> robot.lookup("#vm-start").queryAs(Button.class).fire());
        waitUntil(() -> text(robot, "#vm-state").equals("running"));
        waitUntil(() -> taskLog(robot).stream().anyMatch(t -> t.action().equals("vm.start")
                && t.status() == TaskRecord.Status.OK));
        waitUntil(() -> text(robot, "#vm-config-state").equals("Current configuration"));
        assertThat(onFx(() -> robot.lookup("#vm-config-state").queryAs(Label.class).getTooltip().getText()))
                .as("the digest on hover").startsWith("Configuration version ");
        assertThat(text(robot, "#vm-balloon")).as("balloon: 0 in its configuration").isEqualTo("no");
        assertThat(text(robot, "#vm-title")).as("a cold start keeps the configuration").contains("train-01");
        assertThat(text(robot, "#vm-memory")).isEqualTo("64.0 GiB");
        assertThat(lines(robot, "#vm-mappings")).contains("gpu-4090-a");
        TaskRecord start = taskLog(robot).stream().filter(t -> t.action().equals("vm.start")).findFirst().orElseThrow();
        assertThat(start.target()).contains("101");
        assertThat(start.connection()).isEqualTo("Demo lab");
        assertThat(fx.app.taskLog().recent(10)).as("kept in the database").extracting(TaskRecord::action)
                .contains("vm.stop", "vm.start");
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> fx.ui.taskMonitor().running() == 0);
        GuiFixture.writePng(GuiFixture.snapshot(tree(robot).getScene()), "console-vm-light-en.png");
        robot.interact(fx.window::showTaskLog);
        WaitForAsyncUtils.waitForFxEvents();
        GuiFixture.writePng(GuiFixture.snapshot(tree(robot).getScene()), "console-tasklog-light-en.png");
    }

    /** What Proxmox VE leaves at its default is said as such, not "unknown" (issue 61): nas-hba sets neither. */
    @Test
    void settingsAtProxmoxDefaultsAreShownAsTheDefaults(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = addDemoLab(robot);
        select(robot, child(child(lab, "pve-store"::equals), l -> l.contains("nas-hba")));
        waitUntil(() -> text(robot, "#vm-config-state").equals("Current configuration"));
        assertThat(text(robot, "#vm-balloon")).isEqualTo("yes (Proxmox VE's default)");
        assertThat(text(robot, "#vm-agent")).isEqualTo("no (Proxmox VE's default)");
        assertThat(text(robot, "#vm-ostype")).as("ostype: other").isEqualTo("other");
    }

    @Test
    void aNodePageShowsItsSummaryChartsAndGpus(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = addDemoLab(robot);
        select(robot, child(lab, "pve-3090"::equals));
        waitUntil(() -> !text(robot, "#node-kernel").isEmpty());
        assertThat(text(robot, "#node-version")).contains("8.");
        assertThat(text(robot, "#node-kernel")).isNotEmpty().isNotEqualTo("unknown");
        assertThat(text(robot, "#node-memory")).contains("GiB");
        assertThat(text(robot, "#node-cpu")).contains("%");
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> fx.ui.taskMonitor().running() == 0);
        GuiFixture.writePng(GuiFixture.snapshot(tree(robot).getScene()), "console-node-light-en.png");

        long id = lab.getValue().connection().orElseThrow().id();
        TabPane page = (TabPane) robot.lookup(".node-page").queryAll().stream().filter(Node::isVisible).findFirst()
                .orElseThrow();
        robot.interact(() -> page.getSelectionModel().select(page.getTabs().stream()
                .filter(t -> t.getId().equals("node-" + id + "-pve-3090-gpus")).findFirst().orElseThrow()));
        waitUntil(() -> robot.lookup("#node-gpus").queryAs(TableView.class).getItems().size() == 4);
        robot.interact(() -> page.getSelectionModel().select(page.getTabs().stream()
                .filter(t -> t.getId().equals("node-" + id + "-pve-3090-charts")).findFirst().orElseThrow()));
        waitUntil(() -> !robot.lookup(".chart").queryAll().isEmpty()
                && robot.lookup(".chart-series-line").tryQuery().isPresent());
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> fx.ui.taskMonitor().running() == 0);
        GuiFixture.writePng(GuiFixture.snapshot(tree(robot).getScene()), "console-node-charts-light-en.png");
    }

    @SuppressWarnings("unchecked")
    private static List<TaskRecord> taskLog(FxRobot robot) {
        return onFx(() -> List.copyOf(robot.lookup("#task-log-table").queryAs(TableView.class).getItems()));
    }
}
