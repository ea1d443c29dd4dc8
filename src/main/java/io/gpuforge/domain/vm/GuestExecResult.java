package io.gpuforge.domain.vm;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * A command run inside a VM by the QEMU guest agent. {@code exited} false means it was still running when
 * the wait ended (no exit code yet).
 */
public record GuestExecResult(boolean exited, OptionalInt exitCode, String stdout, String stderr) {

    public GuestExecResult {
        Objects.requireNonNull(exitCode);
        Objects.requireNonNull(stdout);
        Objects.requireNonNull(stderr);
    }
}
