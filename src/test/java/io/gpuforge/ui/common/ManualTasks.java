package io.gpuforge.ui.common;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * {@link BackgroundTasks} whose work runs only when the test says so ({@link #runNext()}), on the test's thread:
 * to see what a view-model does while a read is still running.
 */
public final class ManualTasks implements BackgroundTasks {

    private final List<Pending<?>> pending = new ArrayList<>();

    @Override
    public <T> Builder<T> supply(String name, Callable<T> work) {
        return new Pending<>(name, work);
    }

    public int waiting() {
        return (int) pending.stream().filter(p -> !p.cancelled).count();
    }

    /** Runs the oldest started task (a cancelled one ends as cancelled: only its finally handler runs). */
    public void runNext() {
        Pending<?> p = pending.remove(0);
        p.finish();
    }

    public void runAll() {
        while (!pending.isEmpty()) {
            runNext();
        }
    }

    private final class Pending<T> implements Builder<T>, Cancellable {
        final String name;
        final Callable<T> work;
        Consumer<? super T> success = v -> { };
        Consumer<? super Throwable> error = e -> { };
        Runnable fin = () -> { };
        boolean cancelled;
        boolean done;

        Pending(String name, Callable<T> work) {
            this.name = name;
            this.work = work;
        }

        @Override
        public Builder<T> onSuccess(Consumer<? super T> handler) {
            success = handler;
            return this;
        }

        @Override
        public Builder<T> onError(Consumer<? super Throwable> handler) {
            error = handler;
            return this;
        }

        @Override
        public Builder<T> andFinally(Runnable handler) {
            fin = handler;
            return this;
        }

        @Override
        public Cancellable start() {
            pending.add(this);
            return this;
        }

        void finish() {
            done = true;
            try {
                if (!cancelled) {
                    try {
                        success.accept(work.call());
                    } catch (Exception e) {
                        error.accept(e);
                    }
                }
            } finally {
                fin.run();
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
        }

        @Override
        public boolean isDone() {
            return done;
        }
    }
}
