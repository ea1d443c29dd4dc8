package io.gpuforge.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.FirstFrameSettings;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.ThemeManager;
import io.gpuforge.ui.shell.StartingFrame;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Application;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.Region;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The first frame is styled by the starting stylesheet, and the theme replaces it right after: the user must not
 * see the window change then. The same starting frame, once with the starting stylesheet and once with the
 * theme: the same background, the same text in the same colour, font and place.
 */
@Tag("ui")
class StartingStylesheetGuiTest {

    @AfterEach
    void close() throws Exception {
        FxToolkit.cleanupStages();
    }

    @ParameterizedTest
    @EnumSource(value = ThemeChoice.class, names = {"LIGHT", "DARK"})
    void theFirstFrameLooksTheSameBeforeAndAfterTheThemeReplacesTheStartingStylesheet(ThemeChoice choice)
            throws Exception {
        FxToolkit.registerPrimaryStage();
        ThemeManager theme = new ThemeManager(Optional.empty());
        String css = theme.resolveDark(choice) ? WindowStart.STARTING_CSS_DARK : WindowStart.STARTING_CSS_LIGHT;
        FirstFrameSettings settings = new FirstFrameSettings(choice, LanguageChoice.ENGLISH, null, null);
        AtomicReference<Stage> stage = new AtomicReference<>();
        AtomicReference<Look> starting = new AtomicReference<>();
        AtomicReference<Look> themed = new AtomicReference<>();
        WaitForAsyncUtils.asyncFx(() -> {
            Application.setUserAgentStylesheet(WindowStart.class.getResource(css).toExternalForm());
            Stage s = new Stage();
            stage.set(s);
            StartingFrame.show(s, new I18n(Locale.ENGLISH), theme, settings);
            starting.set(Look.of(s.getScene().getRoot()));
        }).get();
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.asyncFx(() -> {
            theme.apply(choice);
            themed.set(Look.of(stage.get().getScene().getRoot()));
        }).get();

        assertThat(starting.get().labels()).as("labels of the starting frame").hasSize(2);
        assertThat(starting.get()).as("%s: starting stylesheet vs the theme", choice)
                .usingRecursiveComparison().isEqualTo(themed.get());
    }

    /** What the user sees of the starting frame: the background colour and each label's text, colour, font, place. */
    private record Look(int background, List<String> labels) {

        static Look of(Parent root) {
            root.applyCss();
            root.layout();
            List<String> labels = new ArrayList<>();
            collect(root, labels);
            WritableImage shot = root.snapshot(null, null);
            // a point of the content area, away from the labels and the tree's border
            int background = shot.getPixelReader().getArgb((int) shot.getWidth() - 20, (int) shot.getHeight() - 20);
            return new Look(background, labels);
        }

        private static void collect(Node node, List<String> out) {
            if (node instanceof Label l) {
                out.add(l.getText() + " | " + l.getTextFill() + " | " + l.getFont() + " | "
                        + l.localToScene(l.getLayoutBounds()));
            }
            if (node instanceof Region r) {
                r.getChildrenUnmodifiable().forEach(c -> collect(c, out));
            }
        }
    }
}
