package io.gpuforge.ui.iommu;

import io.gpuforge.domain.HostFacts;
import io.gpuforge.ui.common.BackgroundTasks;
import java.util.Objects;
import java.util.concurrent.Callable;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/** A host's facts (one probe), whether a probe is running, and the last error. */
public final class HostFactsViewModel {

    private final BackgroundTasks tasks;
    private final Callable<HostFacts> source;
    private final String taskName;
    private final ReadOnlyObjectWrapper<HostFacts> facts = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper();
    private BackgroundTasks.Cancellable running;

    public HostFactsViewModel(BackgroundTasks tasks, Callable<HostFacts> source, String taskName) {
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
                .onSuccess(f -> {
                    facts.set(f);
                    error.set(null);
                })
                .onError(t -> error.set(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage()))
                .andFinally(() -> loading.set(false))
                .start();
    }

    public ReadOnlyObjectProperty<HostFacts> factsProperty() {
        return facts.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }
}
