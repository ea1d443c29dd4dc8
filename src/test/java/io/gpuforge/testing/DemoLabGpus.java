package io.gpuforge.testing;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.passthrough.GpuAssignments;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmRef;

/**
 * The Demo lab's GPUs as a test needs them. Its only card set up for passthrough already, pve-4090's 0000:01:00.0, is
 * train-01's (running): a test that gives it to another VM frees it first, as a user must (passthrough refuses a card
 * another VM holds).
 */
public final class DemoLabGpus {

    public static final PciAddress PVE_4090_CARD = PciAddress.parse("0000:01:00.0");

    private DemoLabGpus() {
    }

    /** Stops train-01 (VM 101 on pve-4090) and takes its GPU away. */
    public static void freeTrain01sGpu(AppContext app, ConnectionInfo demo) throws Exception {
        VmRef train = new VmRef("pve-4090", "101");
        TaskOutcome stopped = app.sessions().of(demo).vmAction(train, VmAction.STOP, TaskListener.none(), () -> false);
        if (!stopped.ok()) {
            throw new IllegalStateException("train-01 did not stop: " + stopped.status());
        }
        new GpuAssignments().detach(app.sessions().of(demo), train, PVE_4090_CARD);
    }
}
