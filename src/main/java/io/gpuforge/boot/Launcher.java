package io.gpuforge.boot;

import io.gpuforge.app.AppPaths;
import io.gpuforge.cli.GpuForgeCli;
import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * The one entry point. With arguments it is the {@code gpuforge} command; without, the desktop app.
 * Not an {@code javafx.application.Application} subclass, so a plain {@code java -jar} works with JavaFX on the
 * class path.
 */
public final class Launcher {

    private Launcher() {
    }

    public static void main(String[] args) {
        AppPaths paths = AppPaths.resolve();
        // Before the first logger is created: logback.xml reads the log directory from this property.
        System.setProperty("gpuforge.logdir", paths.logDir().toString());
        if (args.length > 0) {
            System.exit(GpuForgeCli.run(args, paths));
        }
        // The window: logging sets itself up (its configuration file, the log file) beside the toolkit's start
        // instead of before the first frame; loggers asked for meanwhile catch up once it is done.
        Optional<String> pipeline = RenderingPipeline.choose();
        Thread logging = new Thread(() -> {
            LoggerFactory.getILoggerFactory();
            JavaFxLogging.loggingReady();
            pipeline.ifPresent(o -> LoggerFactory.getLogger(Launcher.class)
                    .info(RenderingPipeline.describe(o, System.getenv("GDK_GL"))));
        }, "gpuforge-logging");
        logging.setDaemon(true);
        logging.start();
        JavaFxLogging.intoTheLog();
        GpuForgeApp.launch(EarlyStart.begin(paths), args);
    }
}
