package io.gpuforge.ui.iommu;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.ui.common.BackgroundTasks;
import io.gpuforge.ui.common.Loadable;
import java.util.concurrent.Callable;
import javafx.beans.property.ReadOnlyObjectProperty;

/** A host's facts (one probe), whether a probe is running, and the last error. */
public final class HostFactsViewModel extends Loadable<HostFacts> {

    public HostFactsViewModel(BackgroundTasks tasks, Callable<HostFacts> source, String taskName) {
        super(tasks, source, taskName);
    }

    public ReadOnlyObjectProperty<HostFacts> factsProperty() {
        return valueProperty();
    }
}
