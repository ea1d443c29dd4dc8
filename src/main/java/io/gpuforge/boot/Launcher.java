package io.gpuforge.boot;

import io.gpuforge.app.AppPaths;
import io.gpuforge.app.FilePrivacy;
import io.gpuforge.cli.GpuForgeCli;
import io.gpuforge.telemetry.ServeLimits;
import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * The one entry point. With arguments it is the {@code gpuforge} command; without, the desktop app.
 * Not an {@code javafx.application.Application} subclass, so a plain {@code java -jar} works with JavaFX on the
 * class path.
 */
public final class Launcher {

    private static final String SLF4J_VERBOSITY = "slf4j.internal.verbosity";
    private static final long LOGGING_DONE_MS = 5_000;

    private Launcher() {
    }

    public static void main(String[] args) {
        // before any HTTP server is made (serve's metrics, the Demo lab's API): the JDK reads its limits once
        ServeLimits.install();
        AppPaths paths = AppPaths.resolve();
        // Before the first logger is created: logback.xml reads the log directory from this property.
        System.setProperty("gpuforge.logdir", paths.logDir().toString());
        if (args.length > 0) {
            // before the first file (a log, the database): whatever this process creates is the user's alone
            FilePrivacy.ownerOnlyFromNowOn();
            JavaFxLogging.prometheusClientIntoTheLog();
            System.exit(GpuForgeCli.run(args, paths));
        }
        // The window: logging sets itself up (its configuration file, the log file) once the first frame is on the
        // screen (HeldLogConfiguration) instead of before it; loggers asked for meanwhile catch up once it is done.
        Optional<String> pipeline = RenderingPipeline.choose();
        if (System.getProperty(SLF4J_VERBOSITY) == null) {
            // SLF4J's notice that it replays what was logged while it was held (stderr, at every start)
            System.setProperty(SLF4J_VERBOSITY, "ERROR");
        }
        Thread logging = new Thread(() -> {
            LoggerFactory.getILoggerFactory();
            JavaFxLogging.loggingReady();
            JavaFxLogging.prometheusClientIntoTheLog();
            pipeline.ifPresent(o -> LoggerFactory.getLogger(Launcher.class)
                    .info(RenderingPipeline.describe(o, System.getenv("GDK_GL"))));
        }, "gpuforge-logging");
        logging.setDaemon(true);
        HeldLogConfiguration.hold(logging);
        logging.start();
        JavaFxLogging.intoTheLog();
        try {
            GpuForgeApp.launch(EarlyStart.begin(paths), args);
        } finally {
            // a start that ended before its first frame: what it logged is written before the JVM ends
            HeldLogConfiguration.release();
            try {
                logging.join(LOGGING_DONE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
