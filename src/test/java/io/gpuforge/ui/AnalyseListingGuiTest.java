package io.gpuforge.ui;

import static io.gpuforge.testing.FxRead.texts;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.testing.SharedFixtures;
import io.gpuforge.ui.passthrough.AnalyseListing;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** Analyse a listing: a forum listing pasted into the window gives every GPU's verdict and its fixes, no host needed. */
@Tag("ui")
class AnalyseListingGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private Stage owner;
    private GuiFixture fx;

    @Start
    void start(Stage stage) {
        owner = stage;
    }

    private Stage paste(FxRobot robot, ThemeChoice theme, LanguageChoice language, String fixture) throws Exception {
        AtomicReference<Stage> w = new AtomicReference<>();
        robot.interact(() -> {
            try {
                fx = WINDOW.closing(new GuiFixture(owner, theme, language));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            w.set(AnalyseListing.open(fx.ui, fx.passthrough(), owner));
        });
        String listing = new String(SharedFixtures.read("hosts/" + fixture), StandardCharsets.UTF_8);
        robot.interact(() -> robot.lookup("#listing-text").queryAs(TextArea.class).setText(listing));
        robot.interact(() -> robot.lookup("#listing-analyse").queryAs(Button.class).fire());
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> robot.lookup("#listing-summary").tryQuery().isPresent());
        WaitForAsyncUtils.waitForFxEvents();
        return w.get();
    }

    @Test
    void aPastedForumListingShowsEachGpusVerdictWithTheChecksAndFixes(FxRobot robot) throws Exception {
        Stage w = paste(robot, ThemeChoice.LIGHT, LanguageChoice.ENGLISH, "07-intel-z370-gt1030.txt");
        String shown = texts(robot.lookup("#listing-result").queryAs(Node.class));
        assertThat(shown).contains("GPUs").contains("0000:01:00.0").contains("GT 1030")
                .contains("0000:00:02.0");
        String gt1030 = texts(robot.lookup("#listing-checks-0000-01-00-0").queryAs(Node.class));
        assertThat(gt1030).as("its group holds the root port too; the fixes are spelled out").contains("Fix: ")
                .contains("Unknown");
        assertThat(Files.size(GuiFixture.writePng(GuiFixture.snapshot(w.getScene()), "analyse-listing-light-en.png")))
                .isPositive();
    }

    @Test
    void theAnalysisSpeaksChineseInTheDarkThemeToo(FxRobot robot) throws Exception {
        Stage w = paste(robot, ThemeChoice.DARK, LanguageChoice.CHINESE_SIMPLIFIED, "01-intel-z790-rtx4070-rx590.txt");
        String shown = texts(robot.lookup("#listing-result").queryAs(Node.class));
        assertThat(shown).contains("块 GPU").contains("0000:01:00.0").contains("0000:04:00.0");
        assertThat(Files.size(GuiFixture.writePng(GuiFixture.snapshot(w.getScene()), "analyse-listing-dark-zh.png")))
                .isPositive();
    }
}
