package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.child;
import static io.gpuforge.ui.ConsoleGuiTest.labels;
import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static io.gpuforge.ui.ConsoleGuiTest.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.share.ShareReadiness;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.common.NavItem;
import java.util.Optional;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeItem;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * The container wizard over the Demo lab: from a free RTX 3090's menu, "Share with a new container…" walks node,
 * template, resources, the GPU (ready or needing the host plan, which is shown as a diff and applied), the driver
 * version, the summary with the exact API call, and the create; the new container is then in the tree sharing the
 * GPU, and in the fleet. (A GPU on vfio-pci, which cannot be chosen: ContainerScreenshotGuiTest.)
 */
@Tag("ui")
class ContainerWizardGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
    }

    @Test
    void aContainerSharingAFreeGpuIsCreatedFromTheWindowAndShownSharingIt(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = ConsoleGuiTest.addDemoLab(robot);
        TreeItem<NavItem> n3090 = child(lab, "pve-3090"::equals);
        fire(robot, child(n3090, l -> l.contains("03:00.0")), "menu-share-ct");
        waitUntil(() -> onFx(() -> robot.lookup("#ct-wizard-hostname").tryQuery().isPresent()));
        assertThat(title(robot)).isEqualTo("Template");
        @SuppressWarnings("unchecked")
        javafx.scene.control.ComboBox<String> template = onFx(() -> robot.lookup("#ct-wizard-template")
                .queryAs(javafx.scene.control.ComboBox.class));
        assertThat(onFx(template::getValue)).contains(":vztmpl/debian-12");
        robot.interact(() -> robot.lookup("#ct-wizard-hostname").queryAs(TextField.class).setText("cuda-01"));
        next(robot);
        assertThat(title(robot)).isEqualTo("Resources and network");
        next(robot);
        waitUntil(() -> "GPU".equals(title(robot)) && !busy(robot));
        @SuppressWarnings("unchecked")
        ListView<Optional<ShareReadiness>> gpus = onFx(() -> robot.lookup("#ct-wizard-gpus").queryAs(ListView.class));
        assertThat(onFx(() -> gpus.getSelectionModel().getSelectedItem()).map(r -> r.gpu().toString()))
                .as("the GPU it was opened from").contains("0000:03:00.0");
        next(robot);
        waitUntil(() -> !busy(robot) && !"GPU".equals(title(robot)));
        if ("Host plan".equals(title(robot))) {
            // the diff sits in a ScrollPane, whose content joins the scene graph only once its skin is made (a pulse)
            waitUntil(() -> texts(robot, "#pt-diff").contains("gpuforge-nvidia-nodes.service"));
            GuiFixture.writePng(GuiFixture.snapshot(wizard(robot).getScene()), "container-wizard-plan-light-en.png");
            next(robot); // "Apply the plan"
            waitUntil(() -> !busy(robot) && !"Host plan".equals(title(robot)));
        }
        assertThat(title(robot)).isEqualTo("Driver");
        assertThat(texts(robot, "#ct-wizard-driver")).contains("550.127.05");
        next(robot);
        assertThat(title(robot)).isEqualTo("Summary");
        waitUntil(() -> texts(robot, "#ct-wizard-calls").startsWith("POST "));
        String summary = texts(robot, "#ct-wizard-calls");
        assertThat(summary).startsWith("POST /nodes/pve-3090/lxc").contains("hostname: cuda-01")
                .contains("unprivileged: 1").containsPattern("dev\\d: /dev/nvidia2").contains("/dev/nvidia-uvm");
        GuiFixture.writePng(GuiFixture.snapshot(wizard(robot).getScene()), "container-wizard-summary-light-en.png");
        next(robot); // Create
        waitUntil(() -> texts(robot, "#ct-wizard-state").contains("made on pve-3090"));
        String id = summary.lines().filter(l -> l.strip().startsWith("vmid: ")).findFirst().orElseThrow().strip()
                .substring(6);
        robot.interact(() -> robot.lookup("#ct-wizard-next").queryAs(Button.class).fire()); // Finish
        waitUntil(() -> onFx(() -> robot.lookup("#container-wizard").tryQuery().isEmpty()));

        // the tree: the container, and the GPU shared by it
        waitUntil(() -> labels(n3090).contains("CT " + id + " cuda-01"));
        waitUntil(() -> labels(n3090).stream().anyMatch(l -> l.contains("03:00.0") && l.contains("shared ×1")));
        // the fleet: the GPU shared by the new container
        fx.app.fleet().refresh();
        try (var sub = fx.app.fleet().subscribe(() -> { })) {
            waitUntil(() -> fx.app.fleet().gpus().stream().anyMatch(g -> g.address().equals(Optional.of(
                    "0000:03:00.0")) && g.host().equals("pve-3090") && g.availability() == FleetGpu.Availability.SHARED
                    && g.containers().stream().anyMatch(c -> c.name().equals("cuda-01"))));
        }
    }

    private static void fire(FxRobot robot, TreeItem<NavItem> item, String id) throws Exception {
        ContextMenu menu = ConsoleConnectionGuiTest.open(robot, item);
        MenuItem m = onFx(() -> menu.getItems().stream().filter(x -> id.equals(x.getId())).findFirst())
                .orElseThrow(() -> new AssertionError("no " + id + " in the menu of " + item.getValue().label()));
        robot.interact(() -> {
            menu.hide();
            m.fire();
        });
    }

    private static Window wizard(FxRobot robot) {
        return onFx(() -> robot.lookup("#container-wizard").query().getScene().getWindow());
    }

    private static void next(FxRobot robot) throws Exception {
        waitUntil(() -> !onFx(() -> robot.lookup("#ct-wizard-next").queryAs(Button.class).isDisabled()));
        robot.interact(() -> robot.lookup("#ct-wizard-next").queryAs(Button.class).fire());
        waitUntil(() -> !busy(robot));
    }

    private static boolean busy(FxRobot robot) {
        return onFx(() -> robot.lookup("#ct-wizard-back").queryAs(Button.class).isDisabled()
                && robot.lookup("#ct-wizard-next").queryAs(Button.class).isDisabled());
    }

    private static String title(FxRobot robot) {
        return onFx(() -> robot.lookup("#ct-wizard-title").queryAs(Labeled.class).getText());
    }

    private static String texts(FxRobot robot, String id) {
        return onFx(() -> robot.lookup(id).queryAll().stream().filter(Node::isVisible).reduce((a, b) -> b)
                .map(ContainerWizardGuiTest::texts).orElse(""));
    }

    private static String texts(Node n) {
        StringBuilder out = new StringBuilder(n instanceof Labeled ? ((Labeled) n).getText() + "\n" : "");
        if (n instanceof TextField) {
            out.append(((TextField) n).getText()).append('\n');
        }
        if (n instanceof Parent) {
            ((Parent) n).getChildrenUnmodifiable().forEach(c -> out.append(texts(c)));
        }
        return out.toString();
    }
}
