package io.gpuforge.ui.common;

import io.gpuforge.app.AppContext;
import java.util.Objects;

/**
 * What every window and view-model of the GUI is built with: the application services plus the
 * UI-wide singletons-by-construction (strings, theme, dialogs, background tasks). Made once by the
 * FX application (or by a test), passed by constructor.
 */
public record UiContext(AppContext app, I18n i18n, ThemeManager theme, DialogService dialogs,
                        BackgroundTasks tasks, TaskMonitor taskMonitor,
                        FallbackExceptionHandler fallback) {

    public UiContext {
        Objects.requireNonNull(app);
        Objects.requireNonNull(i18n);
        Objects.requireNonNull(theme);
        Objects.requireNonNull(dialogs);
        Objects.requireNonNull(tasks);
        Objects.requireNonNull(taskMonitor);
        Objects.requireNonNull(fallback);
    }
}
