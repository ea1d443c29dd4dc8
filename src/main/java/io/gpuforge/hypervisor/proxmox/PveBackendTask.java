package io.gpuforge.hypervisor.proxmox;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.tasks.TaskRef;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.hypervisor.BackendTask;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * A Proxmox task (UPID) as the seam's {@link BackendTask}: followed with {@link PveTasks} (each new log line to
 * the listener; stopped on the server when cancelled or timed out), the VM it creates named in the outcome once
 * it succeeded.
 */
final class PveBackendTask implements BackendTask {

    private final PveSession session;
    private final PveTasks tasks;
    private final Upid upid;
    private final Optional<VmRef> creates;

    PveBackendTask(PveSession session, PveTasks tasks, Upid upid, Optional<VmRef> creates) {
        this.session = session;
        this.tasks = tasks;
        this.upid = upid;
        this.creates = creates;
    }

    @Override
    public TaskRef ref() {
        return new TaskRef(upid.raw(), upid.node(), upid.type(), upid.id().orElse(""));
    }

    @Override
    public TaskOutcome await(TaskListener listener, BooleanSupplier cancelled, Duration timeout)
            throws BackendException, InterruptedException {
        PveTasks.Outcome o = session.callWaiting(() -> tasks.await(upid, listener::line, cancelled, timeout));
        return new TaskOutcome(ref(), o.ok(), o.exitStatus(), o.log(), o.ok() ? creates : Optional.empty());
    }
}
