package io.gpuforge.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.GuiWindow;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Writes PNGs of the main screens, light and dark, English and Chinese, to {@code gpuforge.screenshots}
 * ({@code target/screenshots} by default; the README's come from {@code -Dgpuforge.screenshots=screenshots}).
 * It also checks what a user would see in them: the dark theme is dark, the Chinese one is in Chinese.
 */
@Tag("ui")
class ScreenshotTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;

    @ParameterizedTest
    @CsvSource({"LIGHT, ENGLISH, light-en", "DARK, ENGLISH, dark-en", "LIGHT, CHINESE_SIMPLIFIED, light-zh-CN",
                "DARK, CHINESE_SIMPLIFIED, dark-zh-CN"})
    void mainScreens(ThemeChoice theme, LanguageChoice language, String suffix, FxRobot robot) throws Exception {
        Stage stage = FxToolkit.registerPrimaryStage();
        robot.interact(() -> {
            try {
                fx = WINDOW.closing(new GuiFixture(stage, theme, language));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS,
                () -> robot.lookup("#fact-kernel").queryAs(Label.class).getText().startsWith("6.8"));
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> fx.ui.taskMonitor().running() == 0);
        WaitForAsyncUtils.waitForFxEvents();
        BufferedImage main = GuiFixture.snapshot(stage.getScene());
        write(main, "main-" + suffix + ".png");

        robot.interact(() -> robot.lookup(".host-page").queryAs(io.gpuforge.ui.host.HostPage.class).showIommu());
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> fx.ui.taskMonitor().running() == 0
                && robot.lookup("#iommu-state").queryAs(Label.class).getText().contains("GPU"));
        WaitForAsyncUtils.waitForFxEvents();
        write(GuiFixture.snapshot(stage.getScene()), "iommu-" + suffix + ".png");

        robot.interact(() -> fx.window.showPreferences());
        WaitForAsyncUtils.waitForFxEvents();
        DialogPane prefs = robot.lookup("#preferences").queryAs(DialogPane.class);
        write(GuiFixture.snapshot(prefs.getScene()), "preferences-" + suffix + ".png");

        double luminance = meanLuminance(main);
        if (theme == ThemeChoice.DARK) {
            assertThat(luminance).as("dark theme looks dark").isLessThan(0.35);
        } else {
            assertThat(luminance).as("light theme looks light").isGreaterThan(0.75);
        }
        String title = robot.lookup("#host-title").queryAs(Label.class).getText();
        assertThat(title).isEqualTo(language == LanguageChoice.ENGLISH ? "This computer" : "本机");
    }

    private static void write(BufferedImage image, String name) throws Exception {
        Path file = GuiFixture.writePng(image, name);
        assertThat(Files.size(file)).isGreaterThan(10_000);
    }

    static double meanLuminance(BufferedImage img) {
        double sum = 0;
        int n = 0;
        for (int y = 0; y < img.getHeight(); y += 4) {
            for (int x = 0; x < img.getWidth(); x += 4) {
                int rgb = img.getRGB(x, y);
                sum += (0.2126 * ((rgb >> 16) & 255) + 0.7152 * ((rgb >> 8) & 255) + 0.0722 * (rgb & 255)) / 255.0;
                n++;
            }
        }
        return sum / n;
    }
}
