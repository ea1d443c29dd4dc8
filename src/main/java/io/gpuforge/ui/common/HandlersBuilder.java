package io.gpuforge.ui.common;

import java.util.function.Consumer;

/**
 * What every {@link BackgroundTasks.Builder} keeps before it starts: the work's handlers for its value, its error
 * (none: the tasks' own fallback) and its end.
 */
abstract class HandlersBuilder<T> implements BackgroundTasks.Builder<T> {

    protected Consumer<? super T> success = v -> { };
    protected Consumer<? super Throwable> error;
    protected Runnable fin = () -> { };

    @Override
    public BackgroundTasks.Builder<T> onSuccess(Consumer<? super T> handler) {
        success = handler;
        return this;
    }

    @Override
    public BackgroundTasks.Builder<T> onError(Consumer<? super Throwable> handler) {
        error = handler;
        return this;
    }

    @Override
    public BackgroundTasks.Builder<T> andFinally(Runnable handler) {
        fin = handler;
        return this;
    }
}
