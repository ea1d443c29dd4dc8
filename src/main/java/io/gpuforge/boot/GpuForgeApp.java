package io.gpuforge.boot;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.AppPaths;
import io.gpuforge.ui.common.FallbackExceptionHandler;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.shell.MainWindow;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonType;
import javafx.stage.Stage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JavaFX application. {@link #init()} runs on the launcher thread and does the blocking set-up
 * (directories, settings, database, OS appearance); {@link #start} only builds and shows the window.
 */
public final class GpuForgeApp extends Application {

    /** Exit right after the first frame and print the start-up time: for the start-up benchmark. */
    public static final String EXIT_AFTER_FIRST_FRAME = "gpuforge.exitAfterFirstFrame";
    private static final Logger LOG = LoggerFactory.getLogger(GpuForgeApp.class);

    private final StartupClock clock = new StartupClock();
    private final AtomicReference<FallbackExceptionHandler> fallback = new AtomicReference<>();
    private AppContext context;
    private Exception initFailure;
    private MainWindow window;

    @Override
    public void init() {
        try {
            context = AppContext.create(AppPaths.resolve(), AppContext.Options.production(),
                    (t, e) -> {
                        FallbackExceptionHandler h = fallback.get();
                        if (h != null) {
                            h.uncaughtException(t, e);
                        } else {
                            LOG.error("Uncaught exception in {}", t.getName(), e);
                        }
                    });
        } catch (Exception e) {
            LOG.error("GPUForge could not start", e);
            initFailure = e;
        }
    }

    @Override
    public void start(Stage stage) {
        if (initFailure != null) {
            Alert a = new Alert(Alert.AlertType.ERROR, "GPUForge could not start: " + initFailure.getMessage(),
                    ButtonType.CLOSE);
            a.showAndWait();
            Platform.exit();
            return;
        }
        UiContext ui = UiContext.create(context, () -> stage);
        fallback.set(ui.fallback());
        ui.fallback().install();
        window = new MainWindow(ui);
        stage.setOnHidden(e -> window.dispose());
        boolean exitAfterFirstFrame = Boolean.getBoolean(EXIT_AFTER_FIRST_FRAME);
        Runnable[] firstPulse = new Runnable[1];
        firstPulse[0] = () -> {
            long ms = clock.markFirstFrame(System.currentTimeMillis());
            stage.getScene().removePostLayoutPulseListener(firstPulse[0]);
            LOG.info("First frame {} ms after JVM start", ms);
            if (exitAfterFirstFrame) {
                context.events().info("app", "startup.firstFrameMs=" + ms);
                Platform.runLater(Platform::exit);
            }
        };
        window.show(stage);
        stage.getScene().addPostLayoutPulseListener(firstPulse[0]);
    }

    @Override
    public void stop() {
        if (context != null) {
            context.close();
        }
        LOG.info("GPUForge stopped");
    }
}
