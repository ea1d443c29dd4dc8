package io.gpuforge.domain.diagnose;

import io.gpuforge.domain.passthrough.ConfigChange;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A diagnosis's fix as applied, kept to roll it back: where (connection, node, VM), for which cause, the host's
 * journal of its host side, the VM's change, its undo and the configuration's version right after it.
 */
public record AppliedFix(String id, long connectionId, String node, String vm, String cause, Instant at,
                         Optional<String> hostJournal, Optional<ConfigChange> vmChange, Optional<ConfigChange> vmUndo,
                         Optional<String> vmVersion, String diff, boolean rolledBack) {

    public AppliedFix {
        Objects.requireNonNull(id);
        Objects.requireNonNull(node);
        Objects.requireNonNull(vm);
        Objects.requireNonNull(cause);
        Objects.requireNonNull(at);
        Objects.requireNonNull(hostJournal);
        Objects.requireNonNull(vmChange);
        Objects.requireNonNull(vmUndo);
        Objects.requireNonNull(vmVersion);
        Objects.requireNonNull(diff);
    }

    public AppliedFix asRolledBack() {
        return new AppliedFix(id, connectionId, node, vm, cause, at, hostJournal, vmChange, vmUndo, vmVersion, diff,
                true);
    }
}
