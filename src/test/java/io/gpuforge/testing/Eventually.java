package io.gpuforge.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for what a test expects to happen on another thread, polling, and fails naming it when it has not happened
 * within the limit: a wait that ran out never passes on silently to assertions that may then hold by chance.
 * Waits for a state, never for a time (CI's machines are slower).
 */
public final class Eventually {

    private static final long POLL_MS = 50;

    private Eventually() {
    }

    /** Waits until {@code condition} holds, at most {@code limit}; fails with "{@code what}: not within …". */
    public static void until(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
        untilHolds(what, limit, condition::getAsBoolean);
    }

    /** A condition whose reading may fail ({@code E}: a call to a backend); a failure fails the wait. */
    @FunctionalInterface
    public interface Check<E extends Exception> {
        boolean holds() throws E;
    }

    /** As {@link #until}, for a condition whose reading may throw. */
    public static <E extends Exception> void untilHolds(String what, Duration limit, Check<E> condition)
            throws E, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(what + ": not within " + limit.toSeconds() + " s");
            }
            Thread.sleep(POLL_MS);
        }
    }
}
