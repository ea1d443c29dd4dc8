package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.child;
import static io.gpuforge.ui.ConsoleGuiTest.labels;
import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static io.gpuforge.ui.ConsoleGuiTest.select;
import static io.gpuforge.ui.ConsoleGuiTest.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.ui.common.NavItem;
import java.awt.image.BufferedImage;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Labeled;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeItem;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * Containers in the dark theme and in Chinese (the light English ones come from ContainerSharingGuiTest and
 * ContainerWizardGuiTest): the tree and a container's page, and the wizard's GPU step; what a user reads there is
 * Chinese and the window is dark.
 */
@Tag("ui")
@ExtendWith(ApplicationExtension.class)
class ContainerScreenshotGuiTest {

    private GuiFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = new GuiFixture(stage, ThemeChoice.DARK, LanguageChoice.CHINESE_SIMPLIFIED);
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.cleanupStages();
        fx.close();
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

        ContextMenu menu = ConsoleConnectionGuiTest.open(robot, child(n3090, l -> l.contains("03:00.0")));
        MenuItem share = onFx(() -> menu.getItems().stream().filter(x -> "menu-share-ct".equals(x.getId()))
                .findFirst().orElseThrow());
        assertThat(onFx(share::getText)).isEqualTo("与新容器共享…");
        robot.interact(() -> {
            menu.hide();
            share.fire();
        });
        waitUntil(() -> onFx(() -> robot.lookup("#ct-wizard-hostname").tryQuery().isPresent()));
        robot.interact(() -> robot.lookup("#ct-wizard-hostname").queryAs(TextField.class).setText("cuda-01"));
        for (int i = 0; i < 2; i++) {
            waitUntil(() -> !onFx(() -> robot.lookup("#ct-wizard-next").queryAs(Button.class).isDisabled()));
            robot.interact(() -> robot.lookup("#ct-wizard-next").queryAs(Button.class).fire());
        }
        waitUntil(() -> onFx(() -> robot.lookup("#ct-wizard-gpu-detail").tryQuery().isPresent()
                && !robot.lookup("#ct-wizard-next").queryAs(Button.class).isDisabled()));
        assertThat(onFx(() -> robot.lookup("#ct-wizard-title").queryAs(Labeled.class).getText())).isEqualTo("选择 GPU");
        Stage wizard = onFx(() -> (Stage) robot.lookup("#container-wizard").query().getScene().getWindow());
        GuiFixture.writePng(GuiFixture.snapshot(wizard.getScene()), "container-wizard-dark-zh-CN.png");
    }
}
