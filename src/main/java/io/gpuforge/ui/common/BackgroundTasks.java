package io.gpuforge.ui.common;

import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Runs blocking work off the FX thread and hands the outcome back on it. Views and view-models use only
 * this, so a test can swap in {@link #sameThread()} and run everything synchronously.
 */
public interface BackgroundTasks {

    <T> Builder<T> supply(String name, Callable<T> work);

    /** Builder in the spirit of Cryptomator's {@code Tasks}: handlers run on the UI thread. */
    interface Builder<T> {
        Builder<T> onSuccess(Consumer<? super T> handler);

        Builder<T> onError(Consumer<? super Throwable> handler);

        Builder<T> andFinally(Runnable handler);

        /**
         * The window's own upkeep (loading the panels' logs), not something the user asked for: kept out of the
         * tasks panel, still counted while it runs.
         */
        default Builder<T> internal() {
            return this;
        }

        /** Starts the work; returns a handle that can cancel it. */
        Cancellable start();
    }

    interface Cancellable {
        void cancel();

        boolean isDone();
    }

    /** Runs the work and its handlers on the calling thread; for tests of view-models. */
    static BackgroundTasks sameThread() {
        return new SameThreadTasks();
    }
}
