package io.gpuforge.ui.common;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import javafx.application.Platform;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last line of defence: logs the stack trace of any uncaught exception and shows the user a short,
 * localised message with the details behind "details / copy". At most one such dialog at a time; further
 * errors while it is open are only logged.
 */
public final class FallbackExceptionHandler implements Thread.UncaughtExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(FallbackExceptionHandler.class);

    private final Supplier<DialogService> dialogs;
    private final I18n i18n;
    private final AtomicBoolean showing = new AtomicBoolean();

    public FallbackExceptionHandler(Supplier<DialogService> dialogs, I18n i18n) {
        this.dialogs = dialogs;
        this.i18n = i18n;
    }

    /** Makes this the handler of every thread that has none of its own, the FX thread included. */
    public void install() {
        Thread.setDefaultUncaughtExceptionHandler(this);
    }

    @Override
    public void uncaughtException(Thread thread, Throwable error) {
        LOG.error("Uncaught exception in thread {}", thread.getName(), error);
        show(error);
    }

    /** Shows an error that reached the top without a handler (e.g. a task with no onError). */
    public void show(Throwable error) {
        Throwable root = rootCause(error);
        String detail = root.getLocalizedMessage() == null ? root.getClass().getSimpleName()
                : root.getLocalizedMessage();
        Runnable r = () -> {
            if (!showing.compareAndSet(false, true)) {
                return;
            }
            try {
                DialogService d = dialogs.get();
                if (d != null) {
                    d.showError("dialog.error.title", i18n.get("dialog.error.unexpected", detail), error);
                }
            } catch (RuntimeException dialogFailure) {
                LOG.error("Could not show the error dialog", dialogFailure);
            } finally {
                showing.set(false);
            }
        };
        try {
            if (Platform.isFxApplicationThread()) {
                r.run();
            } else {
                Platform.runLater(r);
            }
        } catch (IllegalStateException toolkitGone) {
            LOG.debug("JavaFX is not running; error only logged");
        }
    }

    static Throwable rootCause(Throwable t) {
        Throwable c = t;
        int guard = 0;
        while (c.getCause() != null && c.getCause() != c && guard++ < 20) {
            c = c.getCause();
        }
        return c;
    }
}
