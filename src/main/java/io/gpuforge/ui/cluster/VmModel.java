package io.gpuforge.ui.cluster;

import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.ui.common.Loadable;

/**
 * A VM's page data beyond what the inventory lists: its configuration (machine, firmware, every disk, NIC and
 * passed-through device), read when the page is first shown, again on F5, and again when the change feed says the
 * VM's configuration or state changed (a burst of changes is one reload). FX thread.
 */
final class VmModel {

    private final VmRef ref;
    private final Loadable<VmConfig> config;

    VmModel(ClusterModel cluster, VmRef ref) {
        this.ref = ref;
        config = new Loadable<>(cluster.tasks(), () -> cluster.session().readConfig(ref),
                cluster.i18n().get("console.task.vmConfig", ref.id(), cluster.session().connection().name()));
    }

    VmRef ref() {
        return ref;
    }

    Loadable<VmConfig> config() {
        return config;
    }

    void changed(ChangeEvent e) {
        boolean mine = e.vm().map(ref::equals).orElse(e.kind() == ChangeEvent.Kind.INVENTORY);
        if (mine && e.kind() != ChangeEvent.Kind.TASK && e.kind() != ChangeEvent.Kind.VM_REMOVED && config.started()) {
            config.changed();
        }
    }

    void refresh() {
        if (config.started()) {
            config.refresh();
        }
    }
}
