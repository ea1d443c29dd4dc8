package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.child;
import static io.gpuforge.ui.ConsoleGuiTest.labels;
import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static io.gpuforge.ui.ConsoleGuiTest.select;
import static io.gpuforge.ui.ConsoleGuiTest.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.common.NavItem;
import java.util.List;
import java.util.Optional;
import javafx.scene.Node;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Labeled;
import javafx.scene.control.MenuItem;
import javafx.scene.control.Tab;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TabPane;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableRow;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Where the console shows a GPU on the Demo lab: the tree says which VM has a GPU given through a Proxmox PCI
 * resource mapping without any VM page having been opened, and the IOMMU tables of the connection page and of a
 * node page offer "Pass through to VM…" on a GPU's row, which opens the passthrough wizard at that GPU.
 */
@Tag("ui")
class ConsoleGpuGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
    }

    @Test
    void aGpuGivenThroughAMappingShowsTheVmThatHasItInTheTree(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = ConsoleGuiTest.addDemoLab(robot);
        TreeItem<NavItem> n4090 = child(lab, "pve-4090"::equals);
        // VM 101 (train-01) has 01:00.0 through the mapping gpu-4090-a; no VM's page was opened
        waitUntil(() -> labels(n4090).stream().anyMatch(l -> l.contains("01:00.0") && l.contains("VM 101")));
        TreeCell<NavItem> row = ConsoleGuiTest.shownCell(robot, child(n4090, l -> l.contains("01:00.0")));
        assertThat(onFx(() -> row.getTooltip().getText())).as("the mapping it is given through").contains("gpu-4090-a");
        // the other card is nobody's: said once the node's containers were read (until then one might share it)
        waitUntil(() -> labels(n4090).stream().anyMatch(l -> l.contains("02:00.0") && l.contains("free")));
    }

    /** The 3090 CT 201 shares is "shared" in the tree, as the fleet and gpuforge inventory say, never "free". */
    @Test
    void aGpuAContainerSharesIsSharedInTheTree(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = ConsoleGuiTest.addDemoLab(robot);
        TreeItem<NavItem> n3090 = child(lab, "pve-3090"::equals);
        waitUntil(() -> labels(n3090).stream().anyMatch(l -> l.contains("04:00.0") && l.contains("shared")));
        assertThat(labels(n3090)).filteredOn(l -> l.contains("04:00.0")).singleElement().asString()
                .doesNotContain("free");
    }

    /**
     * The 3090 at 01:00.0 is set up in llm-70b (121) and render-02 (122): the tree names the same holder as
     * gpuforge inventory (the lowest id of two stopped VMs), and says there is another.
     */
    @Test
    void aGpuTwoVmsNameHasOneHolderAsInventorySays(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = ConsoleGuiTest.addDemoLab(robot);
        TreeItem<NavItem> n3090 = child(lab, "pve-3090"::equals);
        // the VMs' configurations are read in the background after the inventory: then both are known
        waitUntil(() -> labels(n3090).stream().anyMatch(l -> l.contains("01:00.0") && l.contains("+1")));
        assertThat(labels(n3090)).filteredOn(l -> l.contains("01:00.0")).singleElement().asString()
                .contains("→ VM 121 +1");
        TreeCell<NavItem> row = ConsoleGuiTest.shownCell(robot, child(n3090, l -> l.contains("01:00.0")));
        assertThat(onFx(() -> row.getTooltip().getText())).contains("also set up in VM 122");
    }

    /**
     * At the window's default size the IOMMU table's bounded columns show their whole text: "0000:01:00.0" and
     * "0000:01:00.1" were both "0000:01:0..." while the name column had room to spare (issue 61, step 3, its first
     * table).
     */
    @Test
    void theIommuTablesAddressesAndIdsAreNotClipped(FxRobot robot) throws Exception {
        connectionIommu(robot, "pve-3090");
        waitUntil(() -> row(robot, "0000:01:00.1").isPresent());
        WaitForAsyncUtils.waitForFxEvents();
        List<String> clipped = onFx(() -> {
            List<String> out = new java.util.ArrayList<>();
            for (Node n : robot.lookup("#iommu-table .tree-table-cell").queryAll()) {
                javafx.scene.control.TreeTableCell<?, ?> cell = (javafx.scene.control.TreeTableCell<?, ?>) n;
                String full = cell.getText();
                Node text = cell.lookup(".text");
                int column = cell.getTableColumn() == null ? -1 : cell.getTreeTableView().getVisibleLeafColumns()
                        .indexOf(cell.getTableColumn());
                if (!n.isVisible() || full == null || full.isEmpty() || !(text instanceof javafx.scene.text.Text t)
                        || column < 0) {
                    continue;
                }
                // the device, class, ids and driver columns hold short, bounded values: never elided (the name, VM
                // and verdict columns hold sentences)
                if (column <= 4 && column != 3 && !t.getText().equals(full)) {
                    out.add(cell.getTableColumn().getText() + ": '" + t.getText() + "' for '" + full + "'");
                }
            }
            return out;
        });
        assertThat(clipped).as("cells shown cut at %.0f px wide", onFx(() -> robot.lookup("#iommu-table").query()
                .getBoundsInLocal().getWidth())).isEmpty();
    }

    @Test
    void theIommuTableOfTheConnectionPageOffersToPassAGpuThrough(FxRobot robot) throws Exception {
        connectionIommu(robot, "pve-4090");
        passThroughFromTheIommuRow(robot, "0000:01:00.0");
    }

    /** The Demo lab added, its connection page's IOMMU tab open on {@code node}. */
    private void connectionIommu(FxRobot robot, String node) throws Exception {
        TreeItem<NavItem> lab = ConsoleGuiTest.addDemoLab(robot);
        long id = lab.getValue().connection().orElseThrow().id();
        select(robot, lab);
        waitUntil(() -> robot.lookup(".cluster-page").tryQuery().isPresent());
        TabPane tabs = (TabPane) robot.lookup(".cluster-page .host-page").query();
        robot.interact(() -> tabs.getSelectionModel().select(tab(tabs, "cluster-" + id + "-iommu")));
        robot.interact(() -> robot.lookup("#cluster-node").queryAs(ChoiceBox.class).setValue(node));
    }

    @Test
    void theIommuTableOfANodePageOffersToPassAGpuThrough(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = ConsoleGuiTest.addDemoLab(robot);
        long id = lab.getValue().connection().orElseThrow().id();
        select(robot, child(lab, "pve-4090"::equals));
        waitUntil(() -> robot.lookup(".node-page").tryQuery().isPresent());
        TabPane page = (TabPane) robot.lookup(".node-page").queryAll().stream().filter(Node::isVisible).findFirst()
                .orElseThrow();
        robot.interact(() -> page.getSelectionModel().select(tab(page, "node-" + id + "-pve-4090-iommu")));
        passThroughFromTheIommuRow(robot, "0000:02:00.0");
    }

    private static Tab tab(TabPane tabs, String id) {
        return tabs.getTabs().stream().filter(t -> id.equals(t.getId())).findFirst()
                .orElseThrow(() -> new AssertionError("no tab " + id));
    }

    /** The GPU's row has "Pass through to VM…"; it opens the wizard, which starts at that GPU's readiness. */
    private void passThroughFromTheIommuRow(FxRobot robot, String address) throws Exception {
        waitUntil(() -> row(robot, address).isPresent());
        // the driver in use, from the node's host (Proxmox VE's listing has none), as gpuforge iommu names it
        waitUntil(() -> row(robot, address).map(r -> onFx(() -> r.lookupAll(".tree-table-cell").stream().anyMatch(c ->
                c instanceof Labeled && List.of("nvidia", "vfio-pci").contains(((Labeled) c).getText()))))
                .orElse(false));
        TreeTableRow<?> row = row(robot, address).orElseThrow();
        assertThat(onFx(row::getContextMenu)).as("the GPU's row has a context menu").isNotNull();
        MenuItem pass = onFx(() -> row.getContextMenu().getItems().stream()
                .filter(m -> "iommu-pass-through".equals(m.getId())).findFirst())
                .orElseThrow(() -> new AssertionError("no Pass through on " + address));
        assertThat(onFx(pass::getText)).isEqualTo("Pass through to VM…");
        robot.interact(pass::fire);
        // looked up on the FX thread: the wizard builds its pages there while this waits
        waitUntil(() -> onFx(() -> robot.lookup("#passthrough-wizard").tryQuery().isPresent()));
        // preselected: the wizard reads that GPU's host and checks it, with no host or GPU to choose
        waitUntil(() -> onFx(() -> robot.lookup("#pt-checks").tryQuery().isPresent()
                || robot.lookup("#pt-message").tryQuery().isPresent()));
        assertThat(onFx(() -> robot.lookup("#pt-hosts").tryQuery())).as("no host to choose").isEmpty();
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static Optional<TreeTableRow<?>> row(FxRobot robot, String address) {
        return onFx(() -> {
            for (Node n : robot.lookup("#iommu-table .tree-table-row-cell").queryAll()) {
                if (n.isVisible() && n.lookupAll(".tree-table-cell").stream().anyMatch(c -> c instanceof Labeled
                        && address.equals(((Labeled) c).getText()))) {
                    return Optional.<TreeTableRow<?>>of((TreeTableRow<?>) n);
                }
            }
            return Optional.<TreeTableRow<?>>empty();
        });
    }
}
