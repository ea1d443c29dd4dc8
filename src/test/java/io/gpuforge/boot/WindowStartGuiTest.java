package io.gpuforge.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.FirstFrameSettings;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.TestContexts;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import javafx.application.Platform;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The window's start as a user sees it: the window is there, in the user's theme and language, saying it is
 * starting, while the application context is still being built (here: held back until the test lets it go); the
 * FX thread stays free meanwhile; then the main window fills the same window in. A start that fails says why there.
 */
@Tag("ui")
@ExtendWith(ApplicationExtension.class)
class WindowStartGuiTest {

    private Stage stage;
    private Path home;
    private WindowStart start;

    @Start
    void start(Stage stage) throws IOException {
        this.stage = stage;
        home = Files.createTempDirectory("gpuforge-start-");
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.cleanupStages();
        if (start != null) {
            start.stop();
        }
        try (Stream<Path> s = Files.walk(home)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private WindowStart windowStart(WindowStart.ContextFactory factory) {
        FirstFrameSettings settings = new FirstFrameSettings(ThemeChoice.DARK, LanguageChoice.CHINESE_SIMPLIFIED, null,
                null);
        return new WindowStart(new StartupClock(), settings, WindowStart.i18n(settings), Optional.of(true), factory,
                home.resolve("logs"));
    }

    @Test
    void theWindowShowsWhileTheContextIsBuiltThenTheMainWindowFillsItIn(FxRobot robot) throws Exception {
        Path sysroot = HostTrees.proxmoxSystemdBoot(home.resolve("sysroot"));
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean building = new AtomicBoolean();
        start = windowStart((dark, uncaught) -> {
            building.set(true);
            assertThat(release.await(60, TimeUnit.SECONDS)).isTrue();
            return TestContexts.firstRun(home.resolve("home"), sysroot, ThemeChoice.DARK,
                    LanguageChoice.CHINESE_SIMPLIFIED);
        });
        robot.interact(() -> start.show(stage));

        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, building::get);
        assertThat(stage.isShowing()).isTrue();
        assertThat(robot.lookup("#starting-tree").queryAs(Node.class).isVisible()).isTrue();
        assertThat(robot.lookup((Label l) -> "正在启动 GPUForge…".equals(l.getText())).tryQuery()).isPresent();
        AtomicBoolean fxFree = new AtomicBoolean();
        Platform.runLater(() -> fxFree.set(true));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, fxFree::get);
        assertThat(start.ready()).isNotDone();
        Scene first = stage.getScene();
        writePng(first, "starting-dark-zh.png");

        release.countDown();
        start.ready().get(60, TimeUnit.SECONDS);
        assertThat(stage.getScene()).as("the same window, filled in").isSameAs(first);
        assertThat(robot.lookup("#main-root").tryQuery()).isPresent();
        assertThat(robot.lookup("#starting-root").tryQuery()).isEmpty();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> {
            Tab t = robot.lookup("#content-tabs").queryAs(TabPane.class).getSelectionModel().getSelectedItem();
            return t != null && "welcome".equals(t.getId());
        });
        writePng(first, "started-dark-zh.png");
    }

    @Test
    void aStartThatFailsSaysWhatWentWrongAndWhereTheLogIs(FxRobot robot) throws Exception {
        start = windowStart((dark, uncaught) -> {
            throw new IOException("/home/u/.local/share/gpuforge is not writable");
        });
        robot.interact(() -> start.show(stage));

        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> robot.lookup("#starting-failed").tryQuery().isPresent());
        String text = robot.lookup("#starting-failed").queryAs(Label.class).getText();
        assertThat(text).contains("/home/u/.local/share/gpuforge is not writable").contains(home.resolve("logs")
                .toString());
        assertThat(robot.lookup(".button").queryAllAs(Button.class)).anyMatch(b -> "关闭".equals(b.getText()));
        assertThat(start.ready()).isCompletedExceptionally();
        assertThat(stage.isShowing()).isTrue();
    }

    private static void writePng(Scene scene, String name) throws IOException {
        AtomicReference<BufferedImage> img = new AtomicReference<>();
        WaitForAsyncUtils.asyncFx(() -> img.set(SwingFXUtils.fromFXImage(scene.snapshot(null), null)));
        WaitForAsyncUtils.waitForFxEvents();
        Path dir = Path.of(System.getProperty("gpuforge.screenshots", "target/screenshots"));
        Files.createDirectories(dir);
        ImageIO.write(img.get(), "png", dir.resolve(name).toFile());
    }
}
