package io.gpuforge.ui.inventory;

import io.gpuforge.domain.HostSummary;
import io.gpuforge.ui.common.BackgroundTasks;
import java.util.Objects;
import java.util.function.Supplier;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/** State of a host's summary card: the facts once read, whether a read is running, and the last error. */
public final class HostSummaryViewModel {

    private final BackgroundTasks tasks;
    private final Supplier<HostSummary> source;
    private final String taskName;
    private final ReadOnlyObjectWrapper<HostSummary> summary = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper();
    private BackgroundTasks.Cancellable running;

    public HostSummaryViewModel(BackgroundTasks tasks, Supplier<HostSummary> source, String taskName) {
        this.tasks = Objects.requireNonNull(tasks);
        this.source = Objects.requireNonNull(source);
        this.taskName = Objects.requireNonNull(taskName);
    }

    /** Reads the facts again in the background; a read already running is cancelled first. */
    public void refresh() {
        if (running != null && !running.isDone()) {
            running.cancel();
        }
        loading.set(true);
        running = tasks.supply(taskName, source::get)
                .onSuccess(s -> {
                    summary.set(s);
                    error.set(null);
                })
                .onError(t -> error.set(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage()))
                .andFinally(() -> loading.set(false))
                .start();
    }

    public ReadOnlyObjectProperty<HostSummary> summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }
}
