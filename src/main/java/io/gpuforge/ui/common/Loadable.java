package io.gpuforge.ui.common;

import java.util.Objects;
import java.util.concurrent.Callable;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * A value read in the background: the last value, whether a read runs, and the last error. A refresh
 * while a read runs cancels that read first. Base of the view-models that show one host's data.
 */
public class Loadable<T> {

    private final BackgroundTasks tasks;
    private final Callable<T> source;
    private final String taskName;
    private final ReadOnlyObjectWrapper<T> value = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper();
    private BackgroundTasks.Cancellable running;

    public Loadable(BackgroundTasks tasks, Callable<T> source, String taskName) {
        this.tasks = Objects.requireNonNull(tasks);
        this.source = Objects.requireNonNull(source);
        this.taskName = Objects.requireNonNull(taskName);
    }

    public void refresh() {
        if (running != null && !running.isDone()) {
            running.cancel();
        }
        loading.set(true);
        running = tasks.supply(taskName, source)
                .onSuccess(v -> {
                    value.set(v);
                    error.set(null);
                })
                .onError(t -> error.set(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage()))
                .andFinally(() -> loading.set(false))
                .start();
    }

    public ReadOnlyObjectProperty<T> valueProperty() {
        return value.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }
}
