package io.gpuforge.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.domain.ApplyOutcome;
import io.gpuforge.domain.ApplyProgress;
import io.gpuforge.domain.Coverage;
import io.gpuforge.domain.GpuVerdict;
import io.gpuforge.domain.HostException;
import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.JournalState;
import io.gpuforge.domain.PassthroughOverrides;
import io.gpuforge.domain.PassthroughPlan;
import io.gpuforge.domain.PciAddress;
import io.gpuforge.domain.PlanBlockedException;
import io.gpuforge.domain.PlanOptions;
import io.gpuforge.domain.ReadinessReport;
import io.gpuforge.domain.VerifyItem;
import io.gpuforge.host.HostConfigurator;
import io.gpuforge.host.Journal;
import io.gpuforge.host.JournalPolicy;
import io.gpuforge.passthrough.GpuVerdicts;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.passthrough.Readiness;
import io.gpuforge.passthrough.Verifier;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * GPU passthrough on a host, for the window (the passthrough wizard) and the CLI alike: readiness checks and every
 * GPU's verdict, the plan, a journaled apply with live progress, rollback, and the post-reboot verify. Everything a
 * host tells goes through {@link HostService}, every change through the engine's HostConfigurator. Blocking:
 * background threads only.
 */
public final class PassthroughService {

    /** What verify found after the reboot: the journal it checked against, and each item. */
    public record VerifyReport(String journalId, List<VerifyItem> items) {
        public VerifyReport {
            items = List.copyOf(items);
        }

        public boolean ok() {
            return items.stream().allMatch(VerifyItem::ok);
        }
    }

    private final HostService hosts;
    private final HostAccess access;
    private final Clock clock;

    public PassthroughService(HostService hosts, HostAccess access, Clock clock) {
        this.hosts = hosts;
        this.access = access;
        this.clock = clock;
    }

    /** The readiness checks of a host, and of one device when given. */
    public ReadinessReport check(HostReading r, Optional<PciAddress> device, PassthroughOverrides o) {
        return Readiness.evaluate(r.facts(), device, o, r.coverage());
    }

    /** "Which of my GPUs can I pass through?": every GPU's verdict and the checks behind it. */
    public List<GpuVerdict> verdicts(HostReading r, PassthroughOverrides o) {
        return GpuVerdicts.of(r.facts(), o, r.coverage());
    }

    /** The plan for a device; refused when the checks block it. */
    public PassthroughPlan plan(HostReading r, PciAddress device, PlanOptions o) throws PlanBlockedException,
            HostException {
        if (!r.isHost()) {
            throw new HostException("a plan needs a host (this computer, SSH or a sysroot), not a pasted listing");
        }
        return Planner.plan(r.facts(), device, o);
    }

    /**
     * Reads the host, plans, lets {@code confirm} see the plan (the CLI asks, the wizard shows the diff), and applies it
     * through one connection, reporting each step and the commands' output to {@code progress}.
     *
     * @return empty when {@code confirm} said no
     */
    public Optional<Applied> apply(HostTarget target, PciAddress device, PlanOptions o, Predicate<PassthroughPlan> confirm,
                                   ApplyProgress progress, HostKeyPrompt prompt) throws HostException, PlanBlockedException {
        requireChangeable(target);
        try (HostAccess.Opened h = access.open(target, prompt)) {
            HostFacts facts = hosts.probe(h);
            PassthroughPlan p = Planner.plan(facts, device, o);
            if (!p.hostChangesNothing() && !confirm.test(p)) {
                return Optional.empty();
            }
            ApplyOutcome outcome = configurator(h).apply(p, progress);
            return Optional.of(new Applied(p, outcome, h.describe()));
        }
    }

    /** A plan applied: what it was, what the engine did, and where. */
    public record Applied(PassthroughPlan plan, ApplyOutcome outcome, String host) {
        /** Whether the host must reboot for the change to take effect. */
        public boolean rebootNeeded() {
            return plan.rebootNeeded() && outcome.status() == ApplyOutcome.Status.APPLIED;
        }
    }

    /** Rolls back the journaled apply (the last, or the one named), restoring every file byte for byte. */
    public ApplyOutcome rollback(HostTarget target, Optional<String> id, ApplyProgress progress, HostKeyPrompt prompt)
            throws HostException {
        requireChangeable(target);
        try (HostAccess.Opened h = access.open(target, prompt)) {
            return configurator(h).rollback(id, progress);
        }
    }

    /** After the reboot: the running host against what the last apply intended. */
    public VerifyReport verify(HostTarget target, HostKeyPrompt prompt) throws HostException {
        HostReading r = hosts.read(target, prompt);
        if (!r.isHost()) {
            throw new HostException("verify needs a host, not a listing");
        }
        Journal j = journal(r.facts());
        List<PciAddress> functions = j.functions.stream().map(PciAddress::parse).toList();
        return new VerifyReport(j.id, Verifier.verify(r.facts(), functions, j.kernelArgs));
    }

    /** The journal of the last apply, checked against what GPUForge can have written; an error says what is off. */
    static Journal journal(HostFacts facts) throws HostException {
        String raw = facts.files().get(Journal.PATH);
        if (raw == null) {
            throw new HostException("no GPUForge apply on this host (" + Journal.PATH + " absent)");
        }
        Journal j;
        try {
            j = new ObjectMapper().readValue(raw, Journal.class);
        } catch (JsonProcessingException e) {
            throw new HostException("the journal " + Journal.PATH + " on the host is damaged: " + e.getOriginalMessage(), e);
        }
        Optional<String> problem = j == null ? Optional.of("it is empty") : JournalPolicy.problem(j);
        if (problem.isPresent()) {
            throw new HostException("the journal " + Journal.PATH + " on the host is not one GPUForge wrote: "
                    + problem.get());
        }
        if (j.state != JournalState.APPLIED) {
            throw new HostException("the last apply (" + j.id + ") is " + j.state + ", not applied"
                    + (j.unfinishedCommand == null ? "" : " ('" + j.unfinishedCommand + "' ran past its time limit)")
                    + (j.state == JournalState.ROLLED_BACK ? "" : "; run 'gpuforge rollback' to finish it"));
        }
        return j;
    }

    /** The coverage of facts read from a live host (the window's pages). */
    public static Coverage wholeHost() {
        return Coverage.wholeHost();
    }

    private HostConfigurator configurator(HostAccess.Opened h) {
        return new HostConfigurator(h.shell(), h.sysroot(), h.sudo(), clock);
    }

    private static void requireChangeable(HostTarget target) throws HostException {
        if (!target.changeable()) {
            throw new HostException(target.describe() + " cannot be changed; use this computer, SSH or a sysroot directory");
        }
    }
}
