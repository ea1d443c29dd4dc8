package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.child;
import static io.gpuforge.ui.ConsoleGuiTest.labels;
import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static io.gpuforge.ui.ConsoleGuiTest.select;
import static io.gpuforge.ui.ConsoleGuiTest.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.share.ShareReadiness;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.common.NavItem;
import java.util.Optional;
import java.awt.image.BufferedImage;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeItem;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * Containers in the dark theme and in Chinese (the light English ones come from ContainerSharingGuiTest and
 * ContainerWizardGuiTest): the tree and a container's page, and the wizard's GPU step on a node whose GPU is on
 * vfio-pci, which cannot be chosen and whose rollback is offered; what a user reads there is Chinese and the window
 * is dark.
 */
@Tag("ui")
class ContainerScreenshotGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.DARK, LanguageChoice.CHINESE_SIMPLIFIED));
    }

    @Test
    void theContainerPageAndTheWizardInDarkChinese(FxRobot robot) throws Exception {
        TreeItem<NavItem> lab = ConsoleGuiTest.addDemoLab(robot);
        TreeItem<NavItem> n3090 = child(lab, "pve-3090"::equals);
        waitUntil(() -> labels(n3090).stream().anyMatch(l -> l.contains("04:00.0") && l.contains("共享 ×1 ⚠")));
        select(robot, child(n3090, "CT 201 media-01"::equals));
        waitUntil(() -> onFx(() -> robot.lookup("#ct-legacy").tryQuery().isPresent()));
        assertThat(onFx(() -> robot.lookup("#ct-migrate").queryAs(Button.class).getText())).isEqualTo("迁移到 devN…");
        waitUntil(() -> fx.ui.taskMonitor().running() == 0);
        BufferedImage page = GuiFixture.snapshot(ConsoleGuiTest.tree(robot).getScene());
        GuiFixture.writePng(page, "container-page-dark-zh-CN.png");
        assertThat(ScreenshotTest.meanLuminance(page)).as("dark theme looks dark").isLessThan(0.35);

        // the wizard on pve-4090, whose first RTX 4090 is on vfio-pci (VM 101 has it): it cannot be chosen
        ContextMenu menu = ConsoleConnectionGuiTest.open(robot, child(lab, "pve-4090"::equals));
        MenuItem create = onFx(() -> menu.getItems().stream().filter(x -> "menu-create-ct".equals(x.getId()))
                .findFirst().orElseThrow());
        assertThat(onFx(create::getText)).isEqualTo("创建容器…");
        robot.interact(() -> {
            menu.hide();
            create.fire();
        });
        waitUntil(() -> onFx(() -> robot.lookup("#ct-wizard-hostname").tryQuery().isPresent()));
        robot.interact(() -> robot.lookup("#ct-wizard-hostname").queryAs(TextField.class).setText("web-01"));
        for (int i = 0; i < 2; i++) {
            waitUntil(() -> !onFx(() -> robot.lookup("#ct-wizard-next").queryAs(Button.class).isDisabled()));
            robot.interact(() -> robot.lookup("#ct-wizard-next").queryAs(Button.class).fire());
        }
        waitUntil(() -> onFx(() -> robot.lookup("#ct-wizard-gpus").tryQuery().isPresent()
                && !robot.lookup("#ct-wizard-next").queryAs(Button.class).isDisabled()));
        assertThat(onFx(() -> robot.lookup("#ct-wizard-title").queryAs(Labeled.class).getText())).isEqualTo("选择 GPU");
        @SuppressWarnings("unchecked")
        ListView<Optional<ShareReadiness>> gpus = onFx(() -> robot.lookup("#ct-wizard-gpus").queryAs(ListView.class));
        robot.interact(() -> gpus.getSelectionModel().select(gpus.getItems().stream().filter(r -> r.map(x -> x.gpu()
                .toString().equals("0000:01:00.0")).orElse(false)).findFirst().orElseThrow()));
        assertThat(onFx(() -> gpus.getSelectionModel().getSelectedItem().orElseThrow().verdict().kind()))
                .isEqualTo(Verdict.Kind.BLOCKED);
        assertThat(onFx(() -> robot.lookup("#ct-wizard-next").queryAs(Button.class).isDisabled()))
                .as("a GPU on vfio-pci cannot be shared").isTrue();
        Button rollback = onFx(() -> robot.lookup("#ct-wizard-rollback").queryAs(Button.class));
        assertThat(onFx(rollback::getText)).isEqualTo("回滚其直通…");
        Stage wizard = onFx(() -> (Stage) robot.lookup("#container-wizard").query().getScene().getWindow());
        GuiFixture.writePng(GuiFixture.snapshot(wizard.getScene()), "container-wizard-dark-zh-CN.png");
        robot.interact(rollback::fire);
        waitUntil(() -> onFx(() -> robot.lookup("#rollback-window").tryQuery().isPresent()));
        robot.interact(() -> gpus.getSelectionModel().select(0));
        assertThat(onFx(() -> robot.lookup("#ct-wizard-next").queryAs(Button.class).isDisabled()))
                .as("a container without a GPU can be made").isFalse();
    }
}
