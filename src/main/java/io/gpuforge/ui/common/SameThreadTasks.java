package io.gpuforge.ui.common;

import java.util.concurrent.Callable;

/** {@link BackgroundTasks} that run synchronously on the caller's thread. */
final class SameThreadTasks implements BackgroundTasks {

    @Override
    public <T> Builder<T> supply(String name, Callable<T> work) {
        return new TaskBuilder<>(work);
    }

    private static final class TaskBuilder<T> extends HandlersBuilder<T> {
        private final Callable<T> work;

        TaskBuilder(Callable<T> work) {
            this.work = work;
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
