package io.gpuforge.boot;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.FirstFrameSettings;
import io.gpuforge.ui.common.FallbackExceptionHandler;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Pulses;
import io.gpuforge.ui.common.ThemeManager;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.shell.MainWindow;
import io.gpuforge.ui.shell.StartingFrame;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.stage.Stage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The window's start in two steps. First the {@link StartingFrame}, from the first-frame settings alone (theme,
 * language, place and size); then, once that frame is on the screen, the application context is built on a
 * background thread (directories, settings store, database and migrations, secret store, event log, task log…) and
 * the {@link MainWindow} fills the same window in. The FX thread never waits for any of it.
 */
public final class WindowStart {

    /** Builds the application context; runs on the start thread, never the FX thread. */
    @FunctionalInterface
    public interface ContextFactory {
        /**
         * @param uncaught for the context's threads: the window's error dialog once the window is there, the log
         *                 before
         */
        AppContext create(Optional<Boolean> osPrefersDark, Thread.UncaughtExceptionHandler uncaught)
                throws Exception;
    }

    /** The first frame's user-agent stylesheets: the few rules of the theme it uses (light, dark). */
    static final String STARTING_CSS_LIGHT = "starting-light.css";
    static final String STARTING_CSS_DARK = "starting-dark.css";
    private static final Logger LOG = LoggerFactory.getLogger(WindowStart.class);

    private final StartupClock clock;
    private final FirstFrameSettings settings;
    private final I18n i18n;
    private final Optional<Boolean> osPrefersDark;
    private final ContextFactory factory;
    private final Path logDir;
    private final CompletableFuture<MainWindow> ready = new CompletableFuture<>();
    private final AtomicReference<FallbackExceptionHandler> fallback = new AtomicReference<>();
    private final Object lock = new Object();
    private AppContext context;
    private boolean stopped;

    /**
     * @param i18n the UI's strings in the settings' language ({@link #i18n(FirstFrameSettings)}), not yet bound to any
     *             node
     */
    public WindowStart(StartupClock clock, FirstFrameSettings settings, I18n i18n, Optional<Boolean> osPrefersDark,
                       ContextFactory factory, Path logDir) {
        this.clock = Objects.requireNonNull(clock);
        this.settings = Objects.requireNonNull(settings);
        this.i18n = Objects.requireNonNull(i18n);
        this.osPrefersDark = Objects.requireNonNull(osPrefersDark);
        this.factory = Objects.requireNonNull(factory);
        this.logDir = Objects.requireNonNull(logDir);
    }

    /** The UI's strings in the language the settings ask for (the system's when they leave it to the system). */
    static I18n i18n(FirstFrameSettings settings) {
        return new I18n(settings.language().resolve(Locale.getDefault()));
    }

    /**
     * Shows the first frame on {@code stage}; the rest follows by itself. FX thread. The first frame is styled by a
     * few lines of CSS with the theme's colours ({@link #STARTING_CSS_LIGHT}, {@link #STARTING_CSS_DARK}); the theme
     * itself (AtlantaFX's stylesheet, about 200 KB to load: a third of the time to the first frame) replaces them
     * once that frame is drawn, while the context is being built.
     */
    public void show(Stage stage) {
        ThemeManager theme = new ThemeManager(osPrefersDark);
        String starting = theme.resolveDark(settings.theme()) ? STARTING_CSS_DARK : STARTING_CSS_LIGHT;
        Application.setUserAgentStylesheet(Objects.requireNonNull(WindowStart.class.getResource(starting), starting)
                .toExternalForm());
        StartingFrame frame = StartingFrame.show(stage, i18n, theme, settings);
        Pulses.afterNextLayout(stage.getScene(), () -> {
            HeldLogConfiguration.release();
            LOG.info("First frame {} ms after JVM start, {} ms of processor time",
                    clock.markFirstFrame(System.currentTimeMillis()), clock.cpuMillis());
            // after this pulse, and before the main window can fill in (that comes later through runLater too)
            Platform.runLater(() -> theme.apply(settings.theme()));
            Thread t = new Thread(() -> build(stage, frame, theme), "gpuforge-start");
            t.setDaemon(true);
            t.start();
        });
    }

    private void build(Stage stage, StartingFrame frame, ThemeManager theme) {
        AppContext built;
        try {
            built = factory.create(osPrefersDark, this::uncaught);
        } catch (Exception | LinkageError e) {
            LOG.error("GPUForge could not start", e);
            Platform.runLater(() -> {
                frame.failed(e.getMessage() == null ? e.toString() : e.getMessage(), logDir);
                ready.completeExceptionally(e);
            });
            return;
        }
        synchronized (lock) {
            if (stopped) {
                built.close();
                return;
            }
            context = built;
        }
        Platform.runLater(() -> fill(stage, built, theme));
    }

    private void fill(Stage stage, AppContext app, ThemeManager theme) {
        if (!stage.isShowing()) {
            return; // closed while starting: stop() closes the context
        }
        UiContext ui = UiContext.create(app, () -> stage, i18n, theme);
        fallback.set(ui.fallback());
        ui.fallback().install();
        MainWindow window = new MainWindow(ui);
        stage.setOnHidden(e -> window.dispose());
        window.show(stage);
        Pulses.afterNextLayout(stage.getScene(), () -> {
            LOG.info("Window ready {} ms after JVM start", System.currentTimeMillis() - clock.jvmStartMillis());
            ready.complete(window);
        });
    }

    /** Completes on the FX thread once the main window has filled in and been drawn; fails if the start failed. */
    public CompletableFuture<MainWindow> ready() {
        return ready;
    }

    /** The application context, once it is built. */
    public Optional<AppContext> context() {
        synchronized (lock) {
            return Optional.ofNullable(context);
        }
    }

    /** The application ends: closes the context if it was built (or closes it as soon as it is). */
    public void stop() {
        AppContext c;
        synchronized (lock) {
            stopped = true;
            c = context;
            context = null;
        }
        if (c != null) {
            c.close();
        }
    }

    private void uncaught(Thread t, Throwable e) {
        FallbackExceptionHandler h = fallback.get();
        if (h != null) {
            h.uncaughtException(t, e);
        } else {
            LOG.error("Uncaught exception in {}", t.getName(), e);
        }
    }
}
