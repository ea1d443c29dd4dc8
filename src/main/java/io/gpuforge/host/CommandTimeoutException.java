package io.gpuforge.host;

import java.time.Duration;

/** A command ran past its time limit. Over SSH it may still be running on the host; locally it was stopped. */
public final class CommandTimeoutException extends ProbeException {

    private static final long serialVersionUID = 1L;
    private final boolean mayStillRun;

    public CommandTimeoutException(String message, boolean mayStillRun) {
        super(message);
        this.mayStillRun = mayStillRun;
    }

    /** Whether the command may still be running on the host (it could not be stopped from here). */
    public boolean mayStillRun() {
        return mayStillRun;
    }

    /** "45 s", "20 min": a limit as a person reads it. */
    public static String human(Duration d) {
        long s = d.toSeconds();
        if (s >= 120 && s % 60 == 0) {
            return s / 60 + " min";
        }
        return s > 0 ? s + " s" : d.toMillis() + " ms";
    }
}
