package io.gpuforge.app.vmcreate;

import io.gpuforge.domain.Redaction;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a create did: the task's outcome, the VM's configuration afterwards, notes for the user, how the
 * template's user-data went in, and how its run over the guest agent went (when it ran).
 */
public record VmCreateResult(TaskOutcome outcome, Optional<VmRef> vm, Optional<VmConfig> config, List<String> notes,
                     UserDataWay userDataWay, Optional<FirstBootProvisioning.Outcome> firstBoot,
                     Optional<SnippetCleanup.Pending> snippet) {
    public VmCreateResult(TaskOutcome outcome, Optional<VmRef> vm, Optional<VmConfig> config, List<String> notes) {
        this(outcome, vm, config, notes, UserDataWay.NONE, Optional.empty(), Optional.empty());
    }

    /**
     * @param snippet the user-data snippet left on the node (way {@link UserDataWay#SNIPPET}): to remove once
     *                the first boot reported done ({@link SnippetCleanup#afterFirstBoot})
     */
    public VmCreateResult {
        notes = List.copyOf(notes);
        Objects.requireNonNull(userDataWay);
        Objects.requireNonNull(firstBoot);
        Objects.requireNonNull(snippet);
    }

    /** Whether the VM was started by the create (its first boot is under way). */
    public boolean started() {
        return vm.map(v -> notes.contains(v.id() + " started")).orElse(false);
    }

    /** Whether the template's setup over the guest agent ran and failed (or never began: no agent). */
    public boolean setupFailed() {
        return firstBoot.map(o -> !o.ok()).orElse(false);
    }

    /** The same with every secret of the request (password, token) masked in what the user is shown. */
    VmCreateResult masked(Redaction secrets) {
        return new VmCreateResult(secrets.apply(outcome), vm, config, notes.stream().map(secrets::apply).toList(),
                userDataWay, firstBoot.map(o -> new FirstBootProvisioning.Outcome(o.ok(), o.modulesRun(),
                o.failedModule(), secrets.apply(o.message()))), snippet);
    }
}
