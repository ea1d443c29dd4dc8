package io.gpuforge.ui.common;

import io.gpuforge.app.monitor.ServiceBeacon;
import java.time.Clock;

import io.gpuforge.app.AppContext;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import javafx.stage.Window;

/**
 * What every window and view-model of the GUI is built with: the application services plus the
 * UI-wide singletons-by-construction (strings, theme, dialogs, background tasks). Made once by the
 * FX application (or by a test), passed by constructor.
 */
public record UiContext(AppContext app, I18n i18n, ThemeManager theme, DialogService dialogs,
                        BackgroundTasks tasks, TaskMonitor taskMonitor,
                        FallbackExceptionHandler fallback, WindowLinks links) {

    public UiContext {
        Objects.requireNonNull(app);
        Objects.requireNonNull(i18n);
        Objects.requireNonNull(theme);
        Objects.requireNonNull(dialogs);
        Objects.requireNonNull(tasks);
        Objects.requireNonNull(taskMonitor);
        Objects.requireNonNull(fallback);
        Objects.requireNonNull(links);
    }

    /** Builds the UI-wide objects over an application context; used by the app and by GUI tests. */
    public static UiContext create(AppContext context, Supplier<Window> owner) {
        I18n i18n = new I18n(context.settings().current().language().resolve(Locale.getDefault()));
        ThemeManager theme = new ThemeManager(context.osPrefersDark());
        theme.apply(context.settings().current().theme());
        return create(context, owner, i18n, theme);
    }

    /**
     * Over strings and a theme made before the application context (the window's first frame shows with them while
     * the context is built); they stay the ones the whole window uses.
     */
    public static UiContext create(AppContext context, Supplier<Window> owner, I18n i18n, ThemeManager theme) {
        FxDialogService dialogs = new FxDialogService(i18n, owner, theme::style);
        FallbackExceptionHandler fallbackHandler = new FallbackExceptionHandler(() -> dialogs, i18n);
        TaskMonitor monitor = new TaskMonitor();
        FxBackgroundTasks tasks = new FxBackgroundTasks(context.executors().background(), fallbackHandler::show,
                monitor);
        // the window's GPU monitor reads what a gpuforge serve on the same store samples, while one runs
        context.fleet().followService(new ServiceBeacon(context.paths().dataDir(), Clock.systemUTC()));
        return new UiContext(context, i18n, theme, dialogs, tasks, monitor, fallbackHandler, new WindowLinks());
    }
}
