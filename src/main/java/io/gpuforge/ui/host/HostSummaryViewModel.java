package io.gpuforge.ui.host;

import io.gpuforge.domain.host.HostSummary;
import io.gpuforge.ui.common.BackgroundTasks;
import io.gpuforge.ui.common.Loadable;
import java.util.function.Supplier;
import javafx.beans.property.ReadOnlyObjectProperty;

/** State of a host's summary card: the facts once read, whether a read is running, and the last error. */
public final class HostSummaryViewModel extends Loadable<HostSummary> {

    public HostSummaryViewModel(BackgroundTasks tasks, Supplier<HostSummary> source, String taskName) {
        super(tasks, source::get, taskName);
    }

    public ReadOnlyObjectProperty<HostSummary> summaryProperty() {
        return valueProperty();
    }
}
