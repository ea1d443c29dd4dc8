package io.gpuforge.boot;

import java.text.MessageFormat;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.slf4j.LoggerFactory;

/**
 * JavaFX's own messages (its platform logger "javafx", which goes to java.util.logging) into GPUForge's log, where an
 * admin finds them beside everything else, instead of java.util.logging's console handler. That handler formats a
 * local date for each record, and the first one ("Unsupported JavaFX configuration: classes were loaded from
 * 'unnamed module'", which a start from a jar always gets) made the toolkit thread load the time-zone database and
 * the locale data before Prism could start: about a third of a second before the first frame.
 */
final class JavaFxLogging {

    /** Held: java.util.logging keeps its loggers only weakly, and a collected one would lose this set-up. */
    private static final Logger JAVAFX = Logger.getLogger("javafx");
    /** Records that came before logging was set up (then SLF4J would print its own "replayed" notice to stderr). */
    private static final Queue<LogRecord> EARLY = new ArrayDeque<>();
    private static boolean ready;
    /**
     * Prometheus' client library (serve's metrics endpoint) logs a client that hung up as a SEVERE record with its
     * stack trace, which java.util.logging prints on stderr: one line in the log at debug instead. Held as above.
     */
    private static final Logger PROMETHEUS = Logger.getLogger("io.prometheus.metrics.exporter.httpserver");

    private JavaFxLogging() {
    }

    static void intoTheLog() {
        JAVAFX.setUseParentHandlers(false);
        JAVAFX.addHandler(new Forward());
    }

    /** The metrics library's records: one line each in the log, at debug, never a stack trace on stderr. */
    static void prometheusClientIntoTheLog() {
        PROMETHEUS.setUseParentHandlers(false);
        PROMETHEUS.addHandler(new Forward(true));
    }

    /** Logging is set up: what came before goes to the log now, the rest as it comes. */
    static void loggingReady() {
        synchronized (EARLY) {
            ready = true;
            while (!EARLY.isEmpty()) {
                log(EARLY.poll());
            }
        }
    }

    private static void log(LogRecord r) {
        org.slf4j.Logger log = LoggerFactory.getLogger(r.getLoggerName() == null ? "javafx" : r.getLoggerName());
        String text = r.getMessage();
        if (text != null && r.getParameters() != null && r.getParameters().length > 0) {
            text = MessageFormat.format(text, r.getParameters());
        }
        int level = r.getLevel().intValue();
        if (level >= Level.SEVERE.intValue()) {
            log.error(text, r.getThrown());
        } else if (level >= Level.WARNING.intValue()) {
            log.warn(text, r.getThrown());
        } else if (level >= Level.INFO.intValue()) {
            log.info(text, r.getThrown());
        } else {
            log.debug(text, r.getThrown());
        }
    }

    /** One record to SLF4J at the matching level, its parameters filled in; held until logging is set up. */
    static final class Forward extends Handler {
        /** One line at debug, its exception's message only, and at once (logging is set up before it is used). */
        private final boolean oneLine;

        Forward() {
            this(false);
        }

        Forward(boolean oneLine) {
            this.oneLine = oneLine;
        }

        @Override
        public void publish(LogRecord r) {
            if (oneLine) {
                LoggerFactory.getLogger(r.getLoggerName()).debug("{}{}", r.getMessage(),
                        r.getThrown() == null ? "" : ": " + r.getThrown());
                return;
            }
            synchronized (EARLY) {
                if (!ready) {
                    EARLY.add(r);
                    return;
                }
            }
            log(r);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
