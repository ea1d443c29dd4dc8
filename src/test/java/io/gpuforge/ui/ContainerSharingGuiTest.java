package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.child;
import static io.gpuforge.ui.ConsoleGuiTest.labels;
import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static io.gpuforge.ui.ConsoleGuiTest.select;
import static io.gpuforge.ui.ConsoleGuiTest.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.testing.FxRead;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.common.NavItem;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Labeled;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TreeItem;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * A GPU shared with containers, where the window shows GPUs, on the Demo lab: its container 201 (media-01) under
 * pve-3090 in the tree, the RTX 3090 it has the old way marked in the tree and on the node page with its driver and
 * user, the container's page with its raw lxc lines, and "Migrate to devN…" opening the plan that, applied, gives
 * it devN entries instead: the mark goes; then "Add a GPU…" gives it a second GPU.
 */
@Tag("ui")
class ContainerSharingGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
    }

    @Test
    void theContainerAndTheGpuItSharesTheOldWayAreShownAndMigratedToDevN(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = ConsoleGuiTest.addDemoLab(robot);
        TreeItem<NavItem> n3090 = child(lab, "pve-3090"::equals);
        waitUntil(() -> labels(n3090).contains("CT 201 media-01"));
        waitUntil(() -> labels(n3090).stream().anyMatch(l -> l.contains("04:00.0") && l.contains("shared ×1 ⚠")));
        assertThat(labels(n3090)).filteredOn(l -> l.contains("01:00.0")).singleElement().asString()
                .as("a GPU no container has").doesNotContain("shared");
        TreeCell<NavItem> gpuRow = ConsoleGuiTest.shownCell(robot, child(n3090, l -> l.contains("04:00.0")));
        assertThat(onFx(() -> gpuRow.getTooltip().getText())).contains("Use: shared by 1 container: 201 media-01 (old way)")
                .contains("Driver: nvidia");

        // the node page's GPUs: driver and use, and the way to migrate the container
        select(robot, n3090);
        waitUntil(() -> onFx(() -> robot.lookup("#node-gpus").tryQuery().isPresent()));
        TabPane page = onFx(() -> (TabPane) robot.lookup(".node-page").queryAll().stream().filter(Node::isVisible)
                .findFirst().orElseThrow());
        long id = lab.getValue().connection().orElseThrow().id();
        robot.interact(() -> page.getSelectionModel().select(page.getTabs().stream()
                .filter(t -> ("node-" + id + "-pve-3090-gpus").equals(t.getId())).findFirst().orElseThrow()));
        @SuppressWarnings("unchecked")
        TableView<GpuInfo> gpus = onFx(() -> (TableView<GpuInfo>) robot.lookup("#node-gpus").queryAll().stream()
                .filter(Node::isVisible).findFirst().orElseThrow());
        waitUntil(() -> cell(gpus, "0000:04:00.0", "Driver").equals("nvidia"));
        assertThat(cell(gpus, "0000:04:00.0", "Assigned to")).isEqualTo("shared by 1 container: 201 media-01 (old way)");
        assertThat(cell(gpus, "0000:01:00.0", "Driver")).isEqualTo("nvidia");
        robot.interact(() -> gpus.getSelectionModel().select(gpus.getItems().stream()
                .filter(g -> g.address().toString().equals("0000:04:00.0")).findFirst().orElseThrow()));
        assertThat(onFx(() -> visible(robot, "#node-gpus-migrate", Button.class).isDisabled())).isFalse();
        assertThat(onFx(() -> visible(robot, "#node-gpus-legacy", Labeled.class).getText())).contains("CT 201");

        // the container's page: its lxc lines, marked
        select(robot, child(n3090, "CT 201 media-01"::equals));
        waitUntil(() -> onFx(() -> robot.lookup("#ct-lxc").tryQuery().isPresent()));
        assertThat(texts(robot, "#ct-lxc")).contains("lxc.mount.entry: /dev/nvidia3 dev/nvidia3");
        assertThat(texts(robot, "#ct-gpu")).contains("0000:04:00.0").contains("nvidia");
        assertThat(texts(robot, "#ct-settings")).contains("rootfs: local-zfs:subvol-201-disk-0,size=16G")
                .contains("net0: name=eth0,bridge=vmbr0").doesNotContain("digest");
        assertThat(onFx(() -> robot.lookup("#ct-legacy").tryQuery().isPresent())).isTrue();
        GuiFixture.writePng(GuiFixture.snapshot(ConsoleGuiTest.tree(robot).getScene()), "container-page-light-en.png");

        // Migrate to devN…: the plan, applied after a confirmation
        robot.interact(() -> visible(robot, "#ct-migrate", Button.class).fire());
        waitUntil(() -> onFx(() -> robot.lookup("#pt-diff").tryQuery().isPresent()));
        String diff = texts(robot, "#pt-diff");
        assertThat(diff).contains("/etc/pve/lxc/201.conf").contains("-lxc.mount.entry: /dev/nvidia3")
                .containsPattern("\\+dev\\d+: /dev/nvidia3");
        Window plan = onFx(() -> robot.lookup("#plan-window").query().getScene().getWindow());
        GuiFixture.writePng(GuiFixture.snapshot(plan.getScene()), "container-migrate-light-en.png");
        Platform.runLater(() -> robot.lookup("#plan-apply").queryAs(Button.class).fire());
        waitUntil(() -> onFx(() -> robot.lookup(".dialog-pane").tryQuery().isPresent()));
        robot.interact(() -> {
            DialogPane d = robot.lookup(".dialog-pane").queryAs(DialogPane.class);
            ((Button) d.lookupButton(d.getButtonTypes().get(0))).fire();
        });
        waitUntil(() -> texts(robot, "#plan-state").contains("Applied (journal"));
        robot.interact(() -> ((Stage) plan).close());

        // read again: devN entries, no mark
        waitUntil(() -> labels(n3090).stream().anyMatch(l -> l.contains("04:00.0") && l.contains("shared ×1")
                && !l.contains("⚠")));
        waitUntil(() -> texts(robot, "#ct-devices").contains("/dev/nvidia3"));
        assertThat(texts(robot, "#ct-lxc")).doesNotContain("/dev/nvidia3");
        assertThat(onFx(() -> robot.lookup("#ct-legacy").tryQuery().isPresent())).isFalse();

        addASecondGpu(robot, n3090);
    }

    /**
     * "Add a GPU…" on the (still stopped) container's page: the host plan first where the GPU needs it, then the
     * second GPU's devN entries beside the first's (one Demo lab start for both flows: the suite's time).
     */
    private void addASecondGpu(FxRobot robot, TreeItem<NavItem> n3090) throws Exception {
        waitUntil(() -> onFx(() -> robot.lookup("#ct-add-gpu").tryQuery().isPresent()));
        robot.interact(() -> visible(robot, "#ct-add-gpu", Button.class).fire());
        waitUntil(() -> onFx(() -> robot.lookup("#addgpu-gpus").tryQuery().map(n -> !((javafx.scene.control.ListView<?>)
                n).getItems().isEmpty()).orElse(false)));
        @SuppressWarnings("unchecked")
        javafx.scene.control.ListView<io.gpuforge.domain.share.ShareReadiness> gpus = onFx(() ->
                robot.lookup("#addgpu-gpus").queryAs(javafx.scene.control.ListView.class));
        Runnable pick = () -> gpus.getSelectionModel().select(gpus.getItems().stream()
                .filter(r -> r.gpu().toString().equals("0000:02:00.0")).findFirst().orElseThrow());
        robot.interact(pick);
        if (onFx(() -> visible(robot, "#addgpu-plan", Button.class).isVisible())) {
            robot.interact(() -> visible(robot, "#addgpu-plan", Button.class).fire());
            waitUntil(() -> onFx(() -> !robot.lookup("#plan-apply").queryAs(Button.class).isDisabled()));
            assertThat(texts(robot, "#pt-diff")).contains("gpuforge-nvidia-nodes.service");
            Platform.runLater(() -> robot.lookup("#plan-apply").queryAs(Button.class).fire());
            waitUntil(() -> onFx(() -> robot.lookup(".dialog-pane").tryQuery().isPresent()));
            robot.interact(() -> {
                DialogPane d = robot.lookup(".dialog-pane").queryAs(DialogPane.class);
                ((Button) d.lookupButton(d.getButtonTypes().get(0))).fire();
            });
            waitUntil(() -> texts(robot, "#plan-state").contains("Applied (journal"));
            waitUntil(() -> onFx(() -> gpus.getItems().stream().anyMatch(r -> r.gpu().toString().equals(
                    "0000:02:00.0") && r.verdict().kind() == io.gpuforge.domain.passthrough.Verdict.Kind.READY)));
            robot.interact(pick);
        }
        waitUntil(() -> onFx(() -> !robot.lookup("#addgpu-add").queryAs(Button.class).isDisabled()));
        robot.interact(() -> robot.lookup("#addgpu-add").queryAs(Button.class).fire());
        waitUntil(() -> texts(robot, "#addgpu-state").contains("added to container 201"));
        assertThat(texts(robot, "#addgpu-state")).contains("/dev/nvidia1");
        waitUntil(() -> texts(robot, "#ct-devices").contains("/dev/nvidia1"));
        assertThat(texts(robot, "#ct-devices")).as("the first GPU's entries stay").contains("/dev/nvidia3");
        waitUntil(() -> labels(n3090).stream().anyMatch(l -> l.contains("02:00.0") && l.contains("shared ×1")));
    }

    private static String cell(TableView<GpuInfo> table, String address, String column) {
        return onFx(() -> {
            TableColumn<GpuInfo, ?> c = table.getColumns().stream().filter(x -> column.equals(x.getText())).findFirst()
                    .orElseThrow(() -> new AssertionError("no column " + column));
            for (int i = 0; i < table.getItems().size(); i++) {
                if (table.getItems().get(i).address().toString().equals(address)) {
                    return String.valueOf(c.getCellData(i));
                }
            }
            return "";
        });
    }

    private static <T> T visible(FxRobot robot, String id, Class<T> type) {
        return type.cast(robot.lookup(id).queryAll().stream().filter(Node::isVisible).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("nothing shown as " + id)));
    }

    /** Every label's text under the last shown node with that id, one per line. */
    private static String texts(FxRobot robot, String id) {
        return onFx(() -> robot.lookup(id).queryAll().stream().filter(Node::isVisible).reduce((a, b) -> b)
                .map(FxRead::texts).orElse(""));
    }
}
