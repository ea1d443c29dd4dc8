package io.gpuforge.ui.common;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import javafx.concurrent.Task;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link BackgroundTasks} on the shared background executor; handlers run on the FX thread. An error
 * with no {@code onError} handler goes to the fallback handler, which logs it and shows it to the user.
 */
public final class FxBackgroundTasks implements BackgroundTasks {

    private static final Logger LOG = LoggerFactory.getLogger(FxBackgroundTasks.class);

    private final ExecutorService executor;
    private final Consumer<Throwable> unhandled;
    private final TaskMonitor monitor;

    public FxBackgroundTasks(ExecutorService executor, Consumer<Throwable> unhandled, TaskMonitor monitor) {
        this.executor = executor;
        this.unhandled = unhandled;
        this.monitor = monitor;
    }

    @Override
    public <T> Builder<T> supply(String name, Callable<T> work) {
        return new FxBuilder<>(name, work);
    }

    private final class FxBuilder<T> extends HandlersBuilder<T> {
        private final String name;
        private final Callable<T> work;
        private boolean internal;

        FxBuilder(String name, Callable<T> work) {
            this.name = name;
            this.work = work;
        }

        @Override
        public Builder<T> internal() {
            internal = true;
            return this;
        }

        /** Call on the FX thread: the task appears in the tasks panel at once. */
        @Override
        public Cancellable start() {
            TaskMonitor.Entry entry = monitor.begin(name, internal);
            Task<T> task = new Task<>() {
                @Override
                protected T call() throws Exception {
                    return work.call();
                }
            };
            task.setOnSucceeded(e -> {
                entry.finish(TaskMonitor.State.SUCCEEDED);
                try {
                    success.accept(task.getValue());
                } finally {
                    fin.run();
                }
            });
            task.setOnFailed(e -> {
                entry.finish(TaskMonitor.State.FAILED);
                try {
                    Throwable t = task.getException();
                    if (error != null) {
                        error.accept(t);
                    } else {
                        LOG.debug("Task {} failed with no error handler", name);
                        unhandled.accept(t);
                    }
                } finally {
                    fin.run();
                }
            });
            task.setOnCancelled(e -> {
                entry.finish(TaskMonitor.State.CANCELLED);
                fin.run();
            });
            try {
                executor.execute(task);
            } catch (RejectedExecutionException closing) {
                // the application is shutting down (its executors are closed): nothing is left to show the result to
                LOG.debug("Task {} not started: the application is closing", name);
                entry.finish(TaskMonitor.State.CANCELLED);
                fin.run();
            }
            return new Cancellable() {
                @Override
                public void cancel() {
                    task.cancel(true);
                }

                @Override
                public boolean isDone() {
                    return task.isDone();
                }
            };
        }
    }
}
