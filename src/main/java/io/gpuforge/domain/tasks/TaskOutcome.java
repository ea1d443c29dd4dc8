package io.gpuforge.domain.tasks;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import io.gpuforge.domain.vm.VmRef;

/**
 * How a task ended: {@code ok} when it succeeded, its status text ({@code OK}, {@code cancelled}, PVE's error),
 * its log, and what it created (the new VM of a clone or create).
 */
public record TaskOutcome(TaskRef task, boolean ok, String status, List<String> log, Optional<VmRef> created) {

    public TaskOutcome {
        Objects.requireNonNull(task);
        Objects.requireNonNull(status);
        Objects.requireNonNull(created);
        log = List.copyOf(log);
    }
}
