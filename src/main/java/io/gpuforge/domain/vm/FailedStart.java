package io.gpuforge.domain.vm;

import java.time.Instant;
import java.util.Objects;

/**
 * The last start of a VM that failed, as its hypervisor recorded it: the task ({@code UPID:…} on Proxmox VE), when it
 * began, the error it ended with ({@code start failed: QEMU exited with code 1}) and its log, bounded by whoever read
 * it. What the diagnosis of a VM reads first.
 */
public record FailedStart(String task, Instant at, String error, String log) {

    public FailedStart {
        Objects.requireNonNull(task);
        Objects.requireNonNull(at);
        Objects.requireNonNull(error);
        Objects.requireNonNull(log);
    }
}
