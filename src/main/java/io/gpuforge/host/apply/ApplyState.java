package io.gpuforge.host.apply;

import java.util.Optional;

/**
 * Where the last apply on a host stands, after GPUForge has brought its journal up to date with what a detached
 * commit did ({@link HostConfigurator#state()}).
 *
 * @param message what happened since the last contact (a commit that ended, staged copies removed), or empty
 */
public record ApplyState(Kind kind, Optional<Journal> journal, Optional<String> message) {

    public enum Kind {
        /** No GPUForge apply on the host. */
        NONE,
        /** The last apply is fully applied. */
        APPLIED,
        /** The last apply was rolled back (or restored by its commit, or never changed anything): untouched. */
        ROLLED_BACK,
        /** Its commit still runs on the host: wait, nothing new may start. */
        RUNNING,
        /** Interrupted or half rolled back: 'gpuforge rollback' finishes the job. */
        UNFINISHED
    }
}
