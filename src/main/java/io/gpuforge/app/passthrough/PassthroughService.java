package io.gpuforge.app.passthrough;

import io.gpuforge.domain.message.Message;
import io.gpuforge.app.host.HostAccess;
import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.host.HostReading;
import io.gpuforge.app.host.HostReboot;
import io.gpuforge.app.host.HostService;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.session.Sessions;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.passthrough.Coverage;
import io.gpuforge.domain.passthrough.GpuVerdict;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.PassthroughOverrides;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.passthrough.ReadinessReport;
import io.gpuforge.domain.passthrough.VerifyItem;
import io.gpuforge.host.apply.ApplyState;
import io.gpuforge.host.apply.HostConfigurator;
import io.gpuforge.host.apply.Journal;
import io.gpuforge.host.apply.JournalPolicy;
import io.gpuforge.passthrough.GpuVerdicts;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.passthrough.Readiness;
import io.gpuforge.passthrough.Verifier;
import java.time.Clock;
import io.gpuforge.domain.connections.ConnectionInfo;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;
import java.time.Instant;
import java.util.ArrayList;
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
    private final Map<String, Instant> verified = new ConcurrentHashMap<>();

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
        return applyPlanned(target, facts -> Planner.plan(facts, device, o), confirm, progress, prompt);
    }

    /** Makes a plan from a host's facts: sharing's host plan, a container's move to devN. */
    @FunctionalInterface
    public interface PlanMaker {
        PassthroughPlan plan(HostFacts facts) throws PlanBlockedException;
    }

    /**
     * Plans from the host's facts as they are now and applies the plan after {@code confirm}, with the same journal,
     * backups and rollback as passthrough; a plan that changes nothing is not confirmed, only reported.
     */
    public Optional<Applied> applyPlanned(HostTarget target, PlanMaker maker, Predicate<PassthroughPlan> confirm,
                                          ApplyProgress progress, HostKeyPrompt prompt)
            throws HostException, PlanBlockedException {
        requireChangeable(target);
        try (HostAccess.Opened h = access.open(target, prompt)) {
            PassthroughPlan p = maker.plan(hosts.probe(h));
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

    /**
     * Where the last apply on a host stands: fully applied, untouched (rolled back, restored by its commit, or cut off
     * before it changed anything), its commit still running on the host, or interrupted (rollback finishes it).
     * Records first how a detached commit ended, as every contact through the engine does; changes nothing else.
     */
    public ApplyStatus applyStatus(HostTarget target, HostKeyPrompt prompt) throws HostException {
        requireChangeable(target);
        try (HostAccess.Opened h = access.open(target, prompt)) {
            ApplyState s = configurator(h).state();
            Optional<String> id = s.journal().map(j -> j.id);
            switch (s.kind()) {
                case APPLIED:
                    return new ApplyStatus(ApplyStatus.Kind.APPLIED, id, s.message());
                case ROLLED_BACK:
                    return new ApplyStatus(ApplyStatus.Kind.UNTOUCHED, id, s.message());
                case RUNNING:
                    return new ApplyStatus(ApplyStatus.Kind.RUNNING, id, s.message());
                case UNFINISHED:
                    return new ApplyStatus(ApplyStatus.Kind.INTERRUPTED, id, s.message());
                default:
                    return new ApplyStatus(ApplyStatus.Kind.NONE, id, s.message());
            }
        }
    }

    /** See {@link #applyStatus}; {@code message}: what GPUForge learnt at this contact (a commit that ended). */
    public record ApplyStatus(Kind kind, Optional<String> journalId, Optional<String> message) {
        public enum Kind { APPLIED, UNTOUCHED, RUNNING, INTERRUPTED, NONE }
    }

    /** After the reboot: the running host against what the last apply intended. */
    public VerifyReport verify(HostTarget target, HostKeyPrompt prompt) throws HostException {
        HostReading r = hosts.read(target, prompt);
        if (!r.isHost()) {
            throw new HostException("verify needs a host, not a listing");
        }
        if (committing(r.facts())) {
            applyStatus(target, prompt); // a detached commit's end is recorded first, as every contact does
            r = hosts.read(target, prompt);
        }
        Journal j = journal(r.facts());
        List<PciAddress> functions = j.functions.stream().map(PciAddress::parse).toList();
        VerifyReport report = new VerifyReport(j.id, Verifier.verify(r.facts(), functions, j.kernelArgs));
        if (report.ok()) {
            verified.put(key(target), clock.instant());
        } else {
            verified.remove(key(target));
        }
        return report;
    }

    /**
     * When this run of GPUForge last verified the host of a node (the passthrough wizard's Verify, {@code gpuforge
     * passthrough}): the VM wizard says a GPU is ready "verified at". Empty when it was not verified in this run.
     */
    public Optional<Instant> verifiedAt(ConnectionInfo connection, String node) {
        return Optional.ofNullable(verified.get(key(new HostTarget.Linked(connection, node))));
    }

    private static String key(HostTarget t) {
        return t instanceof HostTarget.Linked ? "node:" + ((HostTarget.Linked) t).connection().id() + "/"
                + ((HostTarget.Linked) t).node() : t.describe();
    }

    /**
     * The host's facts, with the end of a detached commit recorded first when its journal says one ran: what a
     * status or a plan then stands on is the host as the commit left it, not the moment it began.
     */
    public HostReading settled(HostTarget target, HostKeyPrompt prompt) throws HostException {
        HostReading r = hosts.read(target, prompt);
        if (r.isHost() && committing(r.facts())) {
            applyStatus(target, prompt);
            r = hosts.read(target, prompt);
        }
        return r;
    }

    /** Whether the journal says a detached commit ran (its end not yet recorded). */
    private static boolean committing(HostFacts facts) {
        String raw = facts.files().get(Journal.PATH);
        try {
            return raw != null && new ObjectMapper().readValue(raw, Journal.class).state == JournalState.COMMITTING;
        } catch (JsonProcessingException e) {
            return false; // journal() says what is wrong with it
        }
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

    /**
     * Every GPU's verdict from facts alone (what a page already holds: a probe, a hypervisor's PCI listing, a pasted
     * listing with its coverage). Pure.
     */
    public static List<GpuVerdict> verdictsOf(HostFacts facts, Coverage coverage, PassthroughOverrides o) {
        return GpuVerdicts.of(facts, o, coverage);
    }

    /**
     * Where the host stands with this device: blocked, changes to make, configured but not rebooted, everything in
     * place, or an unfinished apply to roll back first. Needs a host (not a listing).
     */
    public PassthroughStatus status(HostReading r, PciAddress device, PlanOptions o) throws HostException {
        if (!r.isHost()) {
            throw new HostException("the status of a passthrough needs a host (this computer, SSH or a sysroot), not a"
                    + " pasted listing");
        }
        return PassthroughStatus.of(r.facts(), device, o);
    }

    /** The plans applied on hosts, and their rollback. */
    public PlanHistory history() {
        return new PlanHistory(access, this);
    }

    /** Reboots of hosts after an apply or a rollback: through {@code sessions} for a node that can, else SSH. */
    public HostReboot reboots(Sessions sessions) {
        return new HostReboot(access, sessions);
    }

    /**
     * After a rollback and the reboot: the running host no longer has what the rolled-back apply added (its kernel
     * arguments, vfio-pci on its functions), and the journal says ROLLED_BACK.
     */
    public VerifyReport verifyRollback(HostTarget target, String journalId, HostKeyPrompt prompt) throws HostException {
        HostReading r = hosts.read(target, prompt);
        if (!r.isHost()) {
            throw new HostException("verify needs a host, not a listing");
        }
        PlanHistory.AppliedPlan p = history().list(target, prompt).plan(journalId).orElseThrow(() ->
                new HostException("no applied plan " + journalId + " on " + target.describe()));
        List<VerifyItem> items = new ArrayList<>();
        items.add(new VerifyItem("journal", p.rolledBack(), p.rolledBack() ? Message.of("verify.rolledBack", journalId)
                : Message.of("verify.notRolledBack", journalId, String.valueOf(p.state()))));
        String cmdline = " " + r.facts().cmdline().orElse("") + " ";
        for (String a : p.kernelArgs()) {
            boolean gone = !cmdline.contains(" " + a + " ");
            items.add(new VerifyItem("cmdline." + a, gone, Message.of(gone ? "verify.cmdline.gone"
                    : "verify.cmdline.still", a)));
        }
        for (PciAddress f : p.functions()) {
            Optional<String> driver = r.facts().pci().device(f).flatMap(d -> d.driver());
            boolean back = !driver.map("vfio-pci"::equals).orElse(false);
            items.add(new VerifyItem("driver." + f, back, back ? Message.of("verify.driverBack", f.toString(),
                    driver.<Object>map(x -> x).orElse(Message.of("verify.noDriver")))
                    : Message.of("verify.stillVfio", f.toString())));
        }
        return new VerifyReport(journalId, items);
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
