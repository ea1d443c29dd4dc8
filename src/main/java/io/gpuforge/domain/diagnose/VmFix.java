package io.gpuforge.domain.diagnose;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.vm.VmRef;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The VM side of a diagnosis's fix, as GPUForge would write it: the change, written against the configuration's
 * version it was planned from (a VM changed meanwhile is refused), the change that undoes it, a unified diff of the
 * configuration, and what of the advice it does not make (said, never silently dropped).
 *
 * @param change empty when GPUForge makes no change on this VM for the cause (only {@code notDone} then)
 * @param undo   writes back what {@code change} replaced: the earlier values, a key it added deleted
 */
public record VmFix(String cause, VmRef vm, String basedOn, Optional<ConfigChange> change, Optional<ConfigChange> undo,
                    String diff, List<Message> notDone) {

    public VmFix {
        Objects.requireNonNull(cause);
        Objects.requireNonNull(vm);
        Objects.requireNonNull(basedOn);
        Objects.requireNonNull(change);
        Objects.requireNonNull(undo);
        Objects.requireNonNull(diff);
        notDone = List.copyOf(notDone);
    }

    public boolean changesNothing() {
        return change.isEmpty();
    }
}
