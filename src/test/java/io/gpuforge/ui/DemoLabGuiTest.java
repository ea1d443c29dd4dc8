package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.GuiWindow;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.control.Button;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The Demo lab connection: a simulated Proxmox VE cluster, clearly labelled, read through the real client. */
@Tag("ui")
class DemoLabGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
    }

    @Test
    void addTheDemoLabAndSeeItsClusterLabelledAsSimulated(FxRobot robot) throws Exception {
        GuiFixture.openAddConnection(robot, 3);
        robot.clickOn("#conn-name").write("Demo lab");
        robot.interact(() -> robot.lookup("#conn-save").queryAs(Button.class).fire());
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> robot.lookup("#domains-table").tryQuery().isPresent()
                && !robot.lookup("#domains-table").queryAs(TableView.class).getItems().isEmpty());
        assertThat(onFx(() -> robot.lookup("#demo-banner").queryAs(Label.class).getText())).contains("simulated");
        @SuppressWarnings("unchecked")
        TableView<VmInfo> table = robot.lookup("#domains-table").queryAs(TableView.class);
        assertThat(onFx(() -> List.copyOf(table.getItems()))).extracting(VmInfo::name)
                .containsExactlyInAnyOrder("train-01", "ubuntu-24.04-cloud", "igd-desk", "llm-70b", "render-02",
                        "nas-hba");
        assertThat(onFx(() -> List.copyOf(table.getItems()))).extracting(v -> v.ref().node() + "/" + v.ref().id() + (v.template() ? " template" : ""))
                .as("the VMs whose start fails, for the diagnosis, among them")
                .containsExactlyInAnyOrder("pve-4090/101", "pve-3090/9000 template", "pve-3090/120", "pve-3090/121",
                        "pve-3090/122", "pve-store/124");
        // the nodes' devices are read once after the inventory: then all six GPUs are known, not only the mapped one
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> robot.lookup("#domains-header").queryAs(Label.class)
                .getText().contains("6 GPUs"));
        assertThat(onFx(() -> robot.lookup("#domains-header").queryAs(Label.class).getText()))
                .as("the counts inventory gives, plural forms right")
                .startsWith("gpuforge-demo (Proxmox VE 8.4.1): 3 nodes, 5 VMs, 1 template, 1 container, 6 GPUs")
                .contains("gpu-4090-a on pve-4090: 0000:01:00.0 (10de:2684)");
        // once the nodes' containers are read, the header names each GPU's holder as inventory and the tree do
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> robot.lookup("#domains-header").queryAs(Label.class)
                .getText().contains("shared by"));
        assertThat(onFx(() -> robot.lookup("#domains-header").queryAs(Label.class).getText()))
                .contains("on pve-3090: 0000:04:00.0 (10de:2204), shared by 1 container: 201")
                .doesNotContain("0000:04:00.0 (10de:2204), free");
        assertThat(fx.app.connections().all()).singleElement()
                .satisfies(c -> assertThat(c.kind()).isEqualTo(ConnectionInfo.Kind.DEMO));
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> fx.ui.taskMonitor().running() == 0);
        WaitForAsyncUtils.waitForFxEvents();
        // no cell shown cut where the table has room: "196608 MiB", "ubuntu-24.04-cloud (template)" (issue 61)
        assertThat(onFx(() -> robot.lookup("#domains-table .table-cell").queryAll().stream()
                .map(n -> (javafx.scene.control.TableCell<?, ?>) n)
                .filter(c -> c.isVisible() && c.getText() != null && !c.getText().isEmpty()
                        && c.lookup(".text") instanceof javafx.scene.text.Text t && !t.getText().equals(c.getText()))
                .map(c -> c.getText()).toList())).as("VM table cells shown cut").isEmpty();
        GuiFixture.writePng(GuiFixture.snapshot(table.getScene()), "demo-lab-light-en.png");
    }

    @Test
    void theDemoLabRemembersWhatWasMadeInItUntilItStartsAfresh(FxRobot robot) throws Exception {
        GuiFixture.openAddConnection(robot, 3);
        robot.clickOn("#conn-name").write("Demo lab");
        robot.interact(() -> robot.lookup("#conn-save").queryAs(Button.class).fire());
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> robot.lookup("#domains-table").tryQuery().isPresent()
                && !robot.lookup("#domains-table").queryAs(TableView.class).getItems().isEmpty());
        ConnectionInfo demo = fx.app.connections().all().get(0);
        TaskOutcome t = fx.app.sessions().of(demo).cloneVm(new CloneRequest(new VmRef("pve-3090", "9000"), "made-01",
                Optional.empty(), false, Optional.empty()), TaskListener.none(), () -> false);
        assertThat(t.ok()).as(t.status()).isTrue();
        @SuppressWarnings("unchecked")
        TableView<VmInfo> table = robot.lookup("#domains-table").queryAs(TableView.class);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().stream()
                .anyMatch(v -> v.name().equals("made-01"))));

        Platform.runLater(() -> robot.lookup("#demo-reset").queryAs(Button.class).fire());
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> robot.lookup(".dialog-pane").queryAll().stream()
                .anyMatch(n -> String.valueOf(((DialogPane) n).getContentText()).contains("Start the Demo lab afresh?")));
        DialogPane d = onFx(() -> (DialogPane) robot.lookup(".dialog-pane").queryAll().stream()
                .filter(n -> String.valueOf(((DialogPane) n).getContentText()).contains("afresh")).findFirst()
                .orElseThrow());
        assertThat(onFx(d::getContentText)).contains("remembers what you made in it");
        robot.interact(() -> ((Button) d.lookupButton(d.getButtonTypes().get(0))).fire());
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> !table.getItems().isEmpty()
                && table.getItems().stream().noneMatch(v -> v.name().equals("made-01"))));
        assertThat(onFx(() -> List.copyOf(table.getItems()))).extracting(VmInfo::name).contains("train-01", "render-02");
    }
}
