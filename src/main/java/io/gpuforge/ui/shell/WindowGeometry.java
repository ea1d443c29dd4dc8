package io.gpuforge.ui.shell;

import io.gpuforge.app.settings.SettingsStore;
import io.gpuforge.app.settings.WindowBounds;
import javafx.beans.InvalidationListener;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Rectangle2D;
import javafx.stage.Screen;
import javafx.stage.Stage;

/**
 * Restores the main window's last size and position (if it is still on a screen) and records every move
 * or resize; the settings store debounces the writes.
 */
final class WindowGeometry {

    static final double DEFAULT_WIDTH = 1200;
    /** Where the tree ends, as a fraction of the window, until the user moves it: room for "GPU · address → VM". */
    static final double DEFAULT_DIVIDER = 0.30;
    static final double DEFAULT_HEIGHT = 760;

    private final Stage stage;
    private final SettingsStore settings;
    private final InvalidationListener recorder = o -> record();

    WindowGeometry(Stage stage, SettingsStore settings) {
        this.stage = stage;
        this.settings = settings;
    }

    static void restore(Stage stage, WindowBounds saved) {
        if (saved != null && onSomeScreen(saved)) {
            stage.setX(saved.x());
            stage.setY(saved.y());
            stage.setWidth(saved.width());
            stage.setHeight(saved.height());
            stage.setMaximized(saved.maximized());
        } else {
            Rectangle2D screen = Screen.getPrimary().getVisualBounds();
            stage.setWidth(Math.min(DEFAULT_WIDTH, screen.getWidth()));
            stage.setHeight(Math.min(DEFAULT_HEIGHT, screen.getHeight()));
            stage.centerOnScreen();
        }
        stage.setMinWidth(WindowBounds.MIN_WIDTH);
        stage.setMinHeight(WindowBounds.MIN_HEIGHT);
    }

    /** At least a 100×60 corner of the title bar area must be visible on some screen. */
    static boolean onSomeScreen(WindowBounds b) {
        return !Screen.getScreensForRectangle(b.x(), b.y(), Math.min(100, b.width()), 60).isEmpty();
    }

    private void record() {
        if (!stage.isShowing() || stage.isIconified() || Double.isNaN(stage.getX()) || Double.isNaN(stage.getY())
                || Double.isNaN(stage.getWidth()) || Double.isNaN(stage.getHeight())) {
            return;
        }
        WindowBounds previous = settings.current().window();
        WindowBounds next = stage.isMaximized() && previous != null
                // keep the restored size while maximised, so un-maximising next run looks right
                ? new WindowBounds(previous.x(), previous.y(), previous.width(), previous.height(), true)
                : new WindowBounds(stage.getX(), stage.getY(), stage.getWidth(), stage.getHeight(),
                        stage.isMaximized());
        settings.update(s -> s.withWindow(next));
    }

    /** Starts recording moves and resizes. */
    void track() {
        for (ObservableValue<?> v : properties()) {
            v.addListener(recorder);
        }
    }

    /** Stops recording (the window is closing or being reused). */
    void detach() {
        for (ObservableValue<?> v : properties()) {
            v.removeListener(recorder);
        }
    }

    private ObservableValue<?>[] properties() {
        return new ObservableValue<?>[] {stage.xProperty(), stage.yProperty(), stage.widthProperty(),
            stage.heightProperty(), stage.maximizedProperty()};
    }
}
