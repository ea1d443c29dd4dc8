package io.gpuforge.boot;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.AppPaths;
import io.gpuforge.app.FilePrivacy;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.stage.Stage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JavaFX application. {@link #init()} takes only what the first frame needs (the first-frame settings, the UI's
 * strings, the desktop's light or dark preference: {@link EarlyStart}, begun before the toolkit); {@link #start} shows
 * that frame at once and leaves the rest of the start to {@link WindowStart}: the application context is built on a
 * background thread after the first frame.
 */
public final class GpuForgeApp extends Application {

    /**
     * Exit once the main window has filled in and been drawn (the first frame came before it): for the start-up
     * benchmark and for the class-data sharing archive made at packaging time, which should hold the classes of the
     * whole window.
     */
    public static final String EXIT_AFTER_FIRST_FRAME = "gpuforge.exitAfterFirstFrame";
    private static final Logger LOG = LoggerFactory.getLogger(GpuForgeApp.class);

    /**
     * What {@code main} began before the toolkit's start, handed over once: JavaFX makes the application object
     * itself, by reflection and without arguments, after its toolkit has started.
     */
    private static final AtomicReference<EarlyStart> HANDED_OVER = new AtomicReference<>();

    private final StartupClock clock = new StartupClock();
    private WindowStart start;

    /** Starts the window (returns when the app ends); {@code early} was begun beside the toolkit's start. */
    static void launch(EarlyStart early, String... args) {
        HANDED_OVER.set(early);
        Application.launch(GpuForgeApp.class, args);
    }

    @Override
    public void init() {
        EarlyStart early = HANDED_OVER.getAndSet(null);
        if (early == null) { // started by Application.launch directly
            early = EarlyStart.begin(AppPaths.resolve());
        }
        AppPaths paths = early.paths();
        start = new WindowStart(clock, early.settings(), early.i18n(), early.osPrefersDark(), (osDark, uncaught) -> {
            // after the first frame, off the FX thread (JNA's first load): files made from now on are the user's
            // alone; what the log made before is tightened by createAll
            FilePrivacy.ownerOnlyFromNowOn();
            return AppContext.create(paths, AppContext.Options.production(), uncaught, osDark);
        }, paths.logDir());
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
