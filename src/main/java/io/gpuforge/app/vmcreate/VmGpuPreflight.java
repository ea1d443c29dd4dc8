package io.gpuforge.app.vmcreate;

import io.gpuforge.app.passthrough.GpuAssignments;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import java.util.List;

/**
 * A new VM's GPU checked before the VM is made: a card another VM's configuration holds (also one the inventory
 * could not tell about, given raw or through a mapping) is refused then, not after a VM was created that cannot have
 * it. Reads every VM configuration of the node. Blocking.
 */
final class VmGpuPreflight {

    private VmGpuPreflight() {
    }

    /** Refuses a GPU that a VM of the node holds; nothing is created. */
    static void check(ConnectionSession s, String node, GpuInfo gpu) throws BackendException {
        List<VmRef> holders = new GpuAssignments().holders(s, node, gpu.address());
        if (holders.isEmpty()) {
            return;
        }
        VmRef h = holders.get(0);
        String name = s.inventory().vm(h).map(VmInfo::name).orElse(h.id());
        throw new BackendException(BackendException.Kind.INVALID, "GPU " + gpu.address() + " is passed through to VM "
                + h.id() + " (" + name + ") already: nothing was created. Take it away there first (gpuforge detach"
                + " --connection \"" + s.connection().name() + "\" --vm " + h.id() + " --device " + gpu.address()
                + "), or choose a free GPU");
    }
}
