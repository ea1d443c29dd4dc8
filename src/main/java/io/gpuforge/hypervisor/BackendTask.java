package io.gpuforge.hypervisor;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.tasks.TaskRef;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * A long operation started on a backend. {@link #await} follows it to its end on the caller's (background)
 * thread, telling the listener each new log line; when {@code cancelled} turns true the task is stopped on
 * the server (where the backend can: {@code Capability.TASK_CANCEL}) and the outcome says "cancelled".
 * Operations that a backend finishes at once (libvirt's) are already done: {@link #done}.
 */
public interface BackendTask {

    TaskRef ref();

    TaskOutcome await(TaskListener listener, BooleanSupplier cancelled, Duration timeout)
            throws BackendException, InterruptedException;

    /** A task that ended when it was started. */
    static BackendTask done(TaskOutcome outcome) {
        return new BackendTask() {
            @Override
            public TaskRef ref() {
                return outcome.task();
            }

            @Override
            public TaskOutcome await(TaskListener listener, BooleanSupplier cancelled, Duration timeout) {
                outcome.log().forEach(listener::line);
                return outcome;
            }
        };
    }
}
