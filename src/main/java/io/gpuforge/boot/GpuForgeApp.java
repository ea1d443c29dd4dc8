package io.gpuforge.boot;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.AppPaths;
import io.gpuforge.app.OsAppearance;
import io.gpuforge.app.settings.FirstFrameSettings;
import io.gpuforge.app.settings.SettingsDefaults;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.stage.Stage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JavaFX application. {@link #init()} reads only what the first frame needs (the first-frame settings, the
 * desktop's light or dark preference); {@link #start} shows that frame at once and leaves the rest of the start to
 * {@link WindowStart}: the application context is built on a background thread after the first frame.
 */
public final class GpuForgeApp extends Application {

    /**
     * Exit once the main window has filled in and been drawn (the first frame came before it): for the start-up
     * benchmark and for the class-data sharing archive made at packaging time, which should hold the classes of the
     * whole window.
     */
    public static final String EXIT_AFTER_FIRST_FRAME = "gpuforge.exitAfterFirstFrame";
    private static final Logger LOG = LoggerFactory.getLogger(GpuForgeApp.class);

    private final StartupClock clock = new StartupClock();
    private WindowStart start;

    @Override
    public void init() {
        AppPaths paths = AppPaths.resolve();
        CompletableFuture<Optional<Boolean>> dark = new CompletableFuture<>();
        Thread ask = new Thread(() -> dark.complete(OsAppearance.system().prefersDark()), "gpuforge-appearance");
        ask.setDaemon(true);
        ask.start();
        FirstFrameSettings first = FirstFrameSettings.read(paths.settingsFile(), SettingsDefaults.installConfigDir());
        start = new WindowStart(clock, first, dark.join(), (osDark, uncaught) ->
                AppContext.create(paths, AppContext.Options.production(), uncaught, osDark), paths.logDir());
    }

    @Override
    public void start(Stage stage) {
        start.show(stage);
        if (Boolean.getBoolean(EXIT_AFTER_FIRST_FRAME)) {
            start.ready().whenComplete((window, failure) -> {
                start.context().ifPresent(c -> c.events().info("app", "startup.firstFrameMs=" + clock.firstFrameMs()));
                Platform.runLater(Platform::exit);
            });
        }
    }

    @Override
    public void stop() {
        if (start != null) {
            start.stop();
        }
        LOG.info("GPUForge stopped");
    }
}
