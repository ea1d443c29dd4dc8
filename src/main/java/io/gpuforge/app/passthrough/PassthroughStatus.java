package io.gpuforge.app.passthrough;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.passthrough.ReadinessReport;
import io.gpuforge.host.apply.Journal;
import io.gpuforge.host.apply.JournalPolicy;
import io.gpuforge.passthrough.Planner;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a host stands with the passthrough of one GPU, from one reading of it and its journal: what the wizard
 * (and {@code gpuforge passthrough}) does next. Everything in place: on to the VM. Configured but still running its
 * old boot: reboot. An apply that did not finish: roll it back first. Otherwise the plan says what to change.
 *
 * @param plan the plan for the device (empty when blocked)
 * @param journalId the last apply on the host, when there is one
 */
public record PassthroughStatus(Stage stage, Optional<PassthroughPlan> plan, Optional<ReadinessReport> blockedBy,
                                Optional<String> journalId, Optional<JournalState> journalState) {

    /** What comes next for the device. */
    public enum Stage {
        /** the checks block it (without an override) */
        BLOCKED,
        /** the host must change: the plan has edits */
        NEEDS_CHANGES,
        /** the host's files have it, the running host does not yet: reboot */
        CONFIGURED_NOT_REBOOTED,
        /** every function is on vfio-pci and nothing is left to change: attach it to a VM */
        IN_PLACE,
        /** an apply or rollback on the host did not finish: roll it back first */
        INTERRUPTED
    }

    public PassthroughStatus {
        Objects.requireNonNull(stage);
        Objects.requireNonNull(plan);
        Objects.requireNonNull(blockedBy);
        Objects.requireNonNull(journalId);
        Objects.requireNonNull(journalState);
    }

    /** The status of {@code device} on the host the facts were read from (a live host or a sysroot). */
    static PassthroughStatus of(HostFacts facts, PciAddress device, PlanOptions options) {
        Optional<Journal> journal = journal(facts);
        Optional<String> id = journal.map(j -> j.id);
        Optional<JournalState> state = journal.map(j -> j.state);
        // a commit still running on the host (its end not recorded) is not planned over either
        if (state.isPresent() && (state.get() == JournalState.APPLYING || state.get() == JournalState.ROLLING_BACK
                || state.get() == JournalState.COMMITTING)) {
            return new PassthroughStatus(Stage.INTERRUPTED, Optional.empty(), Optional.empty(), id, state);
        }
        PassthroughPlan plan;
        try {
            plan = Planner.plan(facts, device, options);
        } catch (PlanBlockedException e) {
            return new PassthroughStatus(Stage.BLOCKED, Optional.empty(), Optional.of(e.report()), id, state);
        }
        if (!plan.hostChangesNothing()) {
            return new PassthroughStatus(Stage.NEEDS_CHANGES, Optional.of(plan), Optional.empty(), id, state);
        }
        boolean bound = onVfio(facts, plan.functions());
        return new PassthroughStatus(bound ? Stage.IN_PLACE : Stage.CONFIGURED_NOT_REBOOTED, Optional.of(plan),
                Optional.empty(), id, state);
    }

    /**
     * Whether the plan takes care of what {@code c} warns about (the vfio modules at boot, the host drivers holding
     * the functions), so the user need not acknowledge it; a failure, or a check no plan fixes, is theirs to weigh.
     */
    public boolean fixedByPlan(Check c) {
        return plan.isPresent() && c.status() != Check.Status.FAIL && c.status() != Check.Status.PASS
                && Planner.FIXES.contains(c.id());
    }

    /**
     * Whether {@code c} is about the VM, which the host's checks do not know yet: the attach, once the VM is chosen,
     * reads its machine type, firmware and ballooning and changes them (or says why it cannot).
     */
    public static boolean checkedAtAttach(Check c) {
        return "vm.machine".equals(c.id()) && c.status() == Check.Status.UNKNOWN;
    }

    /** Whether the user must acknowledge {@code c} before going on: a warning or unknown nothing else deals with. */
    public boolean needsAcknowledgement(Check c) {
        return (c.status() == Check.Status.WARN || c.status() == Check.Status.UNKNOWN) && !fixedByPlan(c)
                && !checkedAtAttach(c);
    }

    /** Whether every function is bound to vfio-pci now. */
    static boolean onVfio(HostFacts facts, List<PciAddress> functions) {
        return !functions.isEmpty() && functions.stream().allMatch(a -> facts.pci().device(a).flatMap(PciDevice::driver)
                .map("vfio-pci"::equals).orElse(false));
    }

    /** The host's journal as the probe read it; one GPUForge cannot have written counts as none here. */
    static Optional<Journal> journal(HostFacts facts) {
        String raw = facts.files().get(Journal.PATH);
        if (raw == null) {
            return Optional.empty();
        }
        try {
            Journal j = new ObjectMapper().readValue(raw, Journal.class);
            return j == null || JournalPolicy.problem(j).isPresent() ? Optional.empty() : Optional.of(j);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }
}
