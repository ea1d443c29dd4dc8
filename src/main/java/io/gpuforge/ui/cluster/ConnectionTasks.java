package io.gpuforge.ui.cluster;

import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.ui.common.UiContext;
import java.util.concurrent.Callable;

/**
 * A task of a connection run from the window (a VM's or a container's action): in the background, how it ended in
 * the events panel (an error also as a dialog), and the inventory read again either way. FX thread.
 */
final class ConnectionTasks {

    private ConnectionTasks() {
    }

    static void run(UiContext ui, ClusterServices services, ClusterModel cluster, String name,
                    Callable<TaskOutcome> work) {
        String source = cluster.session().connection().name();
        ui.tasks().supply(name, work)
                .onSuccess(out -> {
                    if (out.ok()) {
                        services.events().info(source, ui.i18n().get("console.event.taskOk", name));
                    } else {
                        services.events().warn(source, ui.i18n().get("console.event.taskFailed", name, out.status()));
                    }
                    cluster.inventory().changed();
                })
                .onError(t -> {
                    services.events().error(source, ui.i18n().get("console.event.taskFailed", name, t.getMessage()));
                    ui.dialogs().showError("dialog.error.title", ui.i18n().get("console.event.taskFailed", name,
                            t.getMessage()), t);
                    cluster.inventory().changed();
                })
                .start();
    }
}
