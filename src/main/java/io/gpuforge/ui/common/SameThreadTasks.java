package io.gpuforge.ui.common;

import java.util.concurrent.Callable;
import java.util.function.Consumer;

/** {@link BackgroundTasks} that run synchronously on the caller's thread. */
final class SameThreadTasks implements BackgroundTasks {

    @Override
    public <T> Builder<T> supply(String name, Callable<T> work) {
        return new TaskBuilder<>(work);
    }

    private static final class TaskBuilder<T> implements Builder<T> {
        private final Callable<T> work;
        private Consumer<? super T> success = v -> { };
        private Consumer<? super Throwable> error;
        private Runnable fin = () -> { };

        TaskBuilder(Callable<T> work) {
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
            try {
                T value = work.call();
                success.accept(value);
            } catch (Exception e) {
                if (error == null) {
                    throw new IllegalStateException("Unhandled error in task", e);
                }
                error.accept(e);
            } finally {
                fin.run();
            }
            return new Cancellable() {
                @Override
                public void cancel() {
                }

                @Override
                public boolean isDone() {
                    return true;
                }
            };
        }
    }
}
