package io.gpuforge.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.FirstRun;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.TestContexts;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.Page;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.welcome.WelcomeActions;
import io.gpuforge.ui.welcome.WelcomePage;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/** The welcome page through its entry point ({@link WelcomePage#page}), over a real application context. */
@Tag("ui")
@ExtendWith(ApplicationExtension.class)
class WelcomePageGuiTest {

    /** In the page's order: the Demo lab first, in view at the window's default size. */
    private static final List<String> CHOICES = List.of("demoLab", "thisComputer", "addProxmox", "addLibvirt",
            "addSsh", "analyseListing");

    private final List<String> ran = new ArrayList<>();
    private Path home;
    private AppContext app;
    private UiContext ui;
    private Node content;
    private Stage stage;

    private void open(FxRobot robot, ThemeChoice theme, LanguageChoice language) throws Exception {
        home = Files.createTempDirectory("gpuforge-welcome-");
        app = TestContexts.firstRun(home.resolve("home"), HostTrees.proxmoxSystemdBoot(home.resolve("sysroot")), theme,
                language);
        stage = FxToolkit.registerPrimaryStage();
        WelcomeActions actions = new WelcomeActions(() -> ran.add("thisComputer"), () -> ran.add("addProxmox"),
                () -> ran.add("addLibvirt"), () -> ran.add("addSsh"), () -> ran.add("analyseListing"),
                () -> ran.add("demoLab"));
        robot.interact(() -> {
            ui = UiContext.create(app, () -> stage);
            Page page = WelcomePage.page(ui, new FirstRun(app.settings(), app.connections()), actions);
            assertThat(page.key()).isEqualTo(WelcomePage.KEY);
            content = page.content().get();
            Scene scene = new Scene((Parent) content, 1100, 720);
            ui.theme().style(scene);
            stage.setScene(scene);
            stage.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.cleanupStages();
        if (content != null) {
            Disposable.of(content);
        }
        if (app != null) {
            app.close();
        }
        if (home != null) {
            try (Stream<Path> s = Files.walk(home)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void eachChoiceRunsItsOwnAction(FxRobot robot) throws Exception {
        open(robot, ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        for (String id : CHOICES) {
            robot.clickOn("#welcome-" + id);
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(ran).as("after clicking %s", id).endsWith(id);
        }
        assertThat(ran).containsExactlyElementsOf(CHOICES);
        assertThat(robot.lookup("#welcome-demoLab").queryAs(Button.class).getAccessibleText())
                .isEqualTo("Try the Demo lab");
        assertThat(robot.lookup("#welcome-simulated").queryAs(Label.class).getText()).isEqualTo("Simulated");
        assertThat(robot.lookup("#welcome-demoLab .label").queryAllAs(Label.class))
                .extracting(Label::getText).anyMatch(t -> t.contains("simulated Proxmox VE cluster"));
    }

    @Test
    void everyChoiceIsReachedWithTabAndActivatedWithSpace(FxRobot robot) throws Exception {
        open(robot, ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        robot.interact(() -> robot.lookup("#welcome-demoLab").query().requestFocus());
        for (String id : CHOICES) {
            Node focused = stage.getScene().getFocusOwner();
            assertThat(focused.getId()).isEqualTo("welcome-" + id);
            robot.type(KeyCode.SPACE);
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(ran).endsWith(id);
            robot.type(KeyCode.TAB);
            WaitForAsyncUtils.waitForFxEvents();
        }
        assertThat(ran).containsExactlyElementsOf(CHOICES);
        assertThat(stage.getScene().getFocusOwner().getId()).isEqualTo("welcome-atStart");
    }

    @Test
    void turningItOffAtStartIsRememberedInTheSettings(FxRobot robot) throws Exception {
        open(robot, ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        FirstRun first = new FirstRun(app.settings(), app.connections());
        assertThat(first.showWelcomeAtStart()).isTrue();
        CheckBox atStart = robot.lookup("#welcome-atStart").queryAs(CheckBox.class);
        assertThat(atStart.isSelected()).isTrue();
        robot.clickOn(atStart);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(atStart.isSelected()).isFalse();
        assertThat(first.showWelcomeAtStart()).isFalse();
        assertThat(app.settings().current().hidesWelcomeAtStart()).isTrue();
    }

    @ParameterizedTest
    @CsvSource({"LIGHT, ENGLISH, light-en", "DARK, ENGLISH, dark-en", "LIGHT, CHINESE_SIMPLIFIED, light-zh-CN",
                "DARK, CHINESE_SIMPLIFIED, dark-zh-CN"})
    void screenshots(ThemeChoice theme, LanguageChoice language, String suffix, FxRobot robot) throws Exception {
        open(robot, theme, language);
        BufferedImage img = GuiFixture.snapshot(stage.getScene());
        Path file = GuiFixture.writePng(img, "welcome-" + suffix + ".png");
        assertThat(Files.size(file)).isGreaterThan(10_000);
        double luminance = ScreenshotTest.meanLuminance(img);
        if (theme == ThemeChoice.DARK) {
            assertThat(luminance).as("dark theme looks dark").isLessThan(0.35);
        } else {
            assertThat(luminance).as("light theme looks light").isGreaterThan(0.75);
        }
        String demo = robot.lookup("#welcome-simulated").queryAs(Label.class).getText();
        assertThat(demo).isEqualTo(language == LanguageChoice.ENGLISH ? "Simulated" : "模拟");
    }
}
