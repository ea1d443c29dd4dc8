package io.gpuforge.app.diagnose;

import io.gpuforge.domain.message.Message;
import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.host.HostService;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.diagnose.AppliedFix;
import io.gpuforge.domain.diagnose.Finding;
import io.gpuforge.domain.diagnose.FixPlan;
import io.gpuforge.domain.diagnose.VmFix;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.passthrough.FixPlanner;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.store.DiagnosisFixRepository;
import io.gpuforge.store.StoreException;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A diagnosis's fix made as a plan: proposed from the VM's configuration and its node's host as they are (the host
 * side a journaled plan like passthrough's, the VM side a configuration change written against the version read),
 * shown, applied only as shown, verified by planning it again (nothing left to change), kept, and rolled back: the VM's
 * earlier values written back and the host's journal rolled back. Blocking: background threads only.
 */
public final class FixService {

    /**
     * What a fix would change: the host plan (over the node's host link), the VM's change, and the notes on it: what
     * it leaves to the user (by hand, in the firmware) and what the user should know (a card bound by address).
     */
    public record Proposal(ConnectionInfo connection, VmRef vm, Finding finding, Optional<PassthroughPlan> host,
                           List<PciAddress> functions, Optional<VmFix> vmFix, List<Message> notDone) {
        public Proposal {
            Objects.requireNonNull(connection);
            Objects.requireNonNull(vm);
            Objects.requireNonNull(finding);
            functions = List.copyOf(functions);
            notDone = List.copyOf(notDone);
        }

        /** Whether applying it would change anything. */
        public boolean changesNothing() {
            return host.map(PassthroughPlan::hostChangesNothing).orElse(true)
                    && vmFix.map(VmFix::changesNothing).orElse(true);
        }

        public String cause() {
            return finding.id();
        }
    }

    /** A fix applied: what is kept to roll it back, what was checked, and what could not be. */
    public record Result(AppliedFix fix, List<Message> verified, List<Message> notChecked, List<Message> notes,
                         boolean rebootNeeded) {
        public Result {
            verified = List.copyOf(verified);
            notChecked = List.copyOf(notChecked);
            notes = List.copyOf(notes);
        }
    }

    /** The cause whose host side is passthrough's plan of the card. */
    private static final String BIND_CARD = "group-not-viable";
    private static final FixPlan NO_PLAN = new FixPlan(List.of(), List.of(), List.of(), List.of(), List.of());
    private static final DateTimeFormatter ID = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private final PassthroughService passthrough;
    private final HostService hosts;
    private final DiagnosisFixRepository fixes;
    private final Clock clock;

    public FixService(PassthroughService passthrough, HostService hosts, DiagnosisFixRepository fixes, Clock clock) {
        this.passthrough = passthrough;
        this.hosts = hosts;
        this.fixes = fixes;
        this.clock = clock;
    }

    /** The fix of {@code finding} for this VM and its node, as it would be applied now; nothing is changed. */
    public Proposal propose(ConnectionSession s, ConnectionInfo c, VmRef vm, Finding finding, HostKeyPrompt prompt)
            throws BackendException, HostException {
        List<Message> notDone = new ArrayList<>();
        Optional<FixPlan> plan = finding.fix().plan();
        if (plan.isEmpty() && finding.id().equals(BIND_CARD) && hosts.hasHost(c, vm.node())) {
            plan = Optional.of(NO_PLAN);
        }
        if (plan.isEmpty()) {
            notDone.add(Message.of("fix.noChange", finding.id(), finding.fix().text()));
            return new Proposal(c, vm, finding, Optional.empty(), List.of(), Optional.empty(), notDone);
        }
        FixPlan fp = plan.get();
        VmConfig config = s.readConfig(vm);
        Optional<VmFix> vmFix = Optional.empty();
        if (!fp.vmChanges().isEmpty()) {
            vmFix = Optional.of(VmFixes.of(c.kind(), finding.id(), config, fp.vmChanges()));
            notDone.addAll(vmFix.get().notDone());
        }
        Optional<PassthroughPlan> host = Optional.empty();
        List<PciAddress> functions = config.details().hostDevices();
        boolean hostSide = fp.touchesHost() || finding.id().equals(BIND_CARD);
        if (hostSide && !finding.shownByHost()) {
            // a line in the guest's log (root there can write a fake kernel line) or pasted text picks no host change
            notDone.add(Message.of("fix.untrusted", hostSide(fp), vm.node(), finding.id()));
        } else if (hostSide && !hosts.hasHost(c, vm.node())) {
            notDone.add(Message.of("fix.needsHost", hostSide(fp), vm.node()));
        } else if (hostSide) {
            HostFacts facts = hosts.read(new HostTarget.Linked(c, vm.node()), prompt).facts();
            functions = slotFunctions(facts, functions);
            try {
                host = Optional.of(hostPlan(facts, finding.id(), fp, functions));
                notDone.addAll(host.get().notes());
            } catch (PlanBlockedException e) {
                notDone.add(Message.of("fix.blocked", vm.node(), String.valueOf(e.getMessage())));
            }
        }
        return new Proposal(c, vm, finding, host, functions, vmFix, notDone);
    }

    /**
     * Applies {@code p} as shown: the VM's change against the version it was planned from, then the host's plan if
     * the host still plans the same (else the VM's change is undone and nothing is left changed).
     */
    public Result apply(ConnectionSession s, Proposal p, ApplyProgress progress, HostKeyPrompt prompt)
            throws BackendException, HostException {
        if (p.connection().id() < 0) {
            throw new IllegalStateException("A fix is applied over a saved connection only, so that it can be rolled"
                    + " back later: save it first (gpuforge connection add …).");
        }
        if (p.changesNothing()) {
            throw new IllegalStateException("The fix of " + p.cause() + " changes nothing on " + p.vm().id()
                    + " or its host: it is there already, or GPUForge cannot make it.");
        }
        List<Message> verified = new ArrayList<>();
        Optional<VmConfig> written = Optional.empty();
        Optional<VmFix> vmFix = p.vmFix().filter(f -> !f.changesNothing());
        if (vmFix.isPresent()) {
            written = Optional.of(s.writeConfig(p.vm(), vmFix.get().change().orElseThrow(), vmFix.get().basedOn()));
            VmFix again = VmFixes.of(p.connection().kind(), p.cause(), written.get(),
                    p.finding().fix().plan().map(FixPlan::vmChanges).orElse(List.of()));
            if (!again.changesNothing()) {
                throw new BackendException(BackendException.Kind.CONFLICT, "VM " + p.vm().id() + " was written but"
                        + " reads back without the fix:\n" + again.diff());
            }
            verified.add(Message.of("fix.verified.vm", p.vm().id(), p.vm().node()));
        }
        Optional<PassthroughService.Applied> applied = Optional.empty();
        Optional<PassthroughPlan> shown = p.host().filter(h -> !h.hostChangesNothing());
        if (shown.isPresent()) {
            try {
                FixPlan fp = p.finding().fix().plan().orElse(NO_PLAN);
                applied = passthrough.applyPlanned(new HostTarget.Linked(p.connection(), p.vm().node()),
                        facts -> hostPlan(facts, p.cause(), fp, p.functions()),
                        plan -> plan.changesAs(shown.get()), progress, prompt);
                if (applied.isEmpty()) {
                    throw new HostException("The host " + p.vm().node() + " changed since the plan was shown; nothing"
                            + " was changed there: diagnose again to see the plan as it is now.");
                }
            } catch (PlanBlockedException e) {
                undo(s, p, vmFix, written);
                throw new HostException("The fix cannot be planned on " + p.vm().node() + ": " + e.getMessage());
            } catch (HostException | RuntimeException e) {
                undo(s, p, vmFix, written);
                throw e;
            }
            verified.add(Message.of("fix.verified.host", applied.get().outcome().journalId()));
        }
        String id = applied.map(a -> "fix-" + a.outcome().journalId())
                .orElse("fix-" + ID.format(clock.instant()) + "-" + p.vm().id().replaceAll("[^A-Za-z0-9._-]", "_"));
        String diff = (vmFix.map(VmFix::diff).orElse("") + shown.map(h -> h.edits().stream()
                .map(PassthroughPlan.FileEdit::diff).reduce("", String::concat)).orElse(""));
        AppliedFix fix = new AppliedFix(id, p.connection().id(), p.vm().node(), p.vm().id(), p.cause(),
                clock.instant(), applied.map(a -> a.outcome().journalId()), vmFix.flatMap(VmFix::change),
                vmFix.flatMap(VmFix::undo), written.map(VmConfig::version), diff, false);
        save(fix);
        List<Message> notChecked = new ArrayList<>();
        boolean reboot = applied.map(PassthroughService.Applied::rebootNeeded).orElse(false);
        if (reboot) {
            notChecked.add(Message.of("fix.notChecked.reboot", p.vm().node()));
        }
        notChecked.add(Message.of(reboot ? "fix.notChecked.startAfterReboot" : "fix.notChecked.start", p.vm().id()));
        return new Result(fix, verified, notChecked, p.notDone(), reboot);
    }

    /** The fixes applied on a connection's VMs, newest first. */
    public List<AppliedFix> applied(ConnectionInfo c) throws BackendException {
        try {
            return fixes.of(c.id());
        } catch (StoreException e) {
            throw new BackendException(BackendException.Kind.FAILED, "The fixes applied cannot be read: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Rolls a fix back: the VM's earlier values written back (refused when the VM changed since the fix), then the
     * host's journal rolled back. Run again after a host rollback that did not finish, it finishes it.
     */
    public AppliedFix rollback(ConnectionSession s, ConnectionInfo c, String id, ApplyProgress progress,
                               HostKeyPrompt prompt) throws BackendException, HostException {
        AppliedFix f;
        try {
            f = fixes.find(id).filter(x -> x.connectionId() == c.id()).orElseThrow(() ->
                    new IllegalArgumentException("No fix " + id + " was applied on " + c.name()));
        } catch (StoreException e) {
            throw new BackendException(BackendException.Kind.FAILED, "The fix " + id + " cannot be read: "
                    + e.getMessage(), e);
        }
        if (f.rolledBack()) {
            throw new IllegalStateException("The fix " + id + " is rolled back already.");
        }
        VmRef vm = new VmRef(f.node(), f.vm());
        if (f.vmChange().isPresent()) {
            VmConfig now = s.readConfig(vm);
            if (VmFixes.holds(f.vmChange(), now, f.vmVersion())) {
                s.writeConfig(vm, f.vmUndo().orElseThrow(), now.version());
            } else if (!(f.vmUndo().orElseThrow() instanceof ConfigChange.Settings)
                    || !VmFixes.holds(f.vmUndo(), now, Optional.empty())) {
                throw new BackendException(BackendException.Kind.CONFLICT, "VM " + f.vm() + " changed since the fix"
                        + " was applied: its configuration is not the fix's any more. Nothing was rolled back.");
            }
        }
        if (f.hostJournal().isPresent()) {
            ApplyOutcome o = passthrough.rollback(new HostTarget.Linked(c, f.node()), f.hostJournal(), progress,
                    prompt);
            if (o.status() != ApplyOutcome.Status.ROLLED_BACK) {
                throw new HostException("The host side of " + id + " was not rolled back: " + o.status());
            }
        }
        AppliedFix back = f.asRolledBack();
        save(back);
        return back;
    }

    private static void undo(ConnectionSession s, Proposal p, Optional<VmFix> vmFix, Optional<VmConfig> written)
            throws BackendException {
        if (written.isPresent()) {
            s.writeConfig(p.vm(), vmFix.orElseThrow().undo().orElseThrow(), written.get().version());
        }
    }

    private void save(AppliedFix f) throws BackendException {
        try {
            fixes.save(f);
        } catch (StoreException e) {
            throw new BackendException(BackendException.Kind.FAILED, "The fix was applied but could not be kept"
                    + " for its rollback: " + e.getMessage(), e);
        }
    }

    /**
     * The host plan of a fix. A group that is not viable is fixed by passthrough's own plan for the card: it reads
     * every function's ids and driver from the host (the logs seldom have them all) and binds them to vfio-pci.
     */
    private static PassthroughPlan hostPlan(HostFacts facts, String cause, FixPlan fp, List<PciAddress> functions)
            throws PlanBlockedException {
        if (cause.equals(BIND_CARD)) {
            PciAddress gpu = functions.stream().filter(a -> a.function() == 0).findFirst().orElseThrow(() ->
                    new PlanBlockedException("the VM has no GPU passed through: no card to bind", null));
            return Planner.plan(facts, gpu, PlanOptions.defaults());
        }
        return FixPlanner.plan(facts, cause, withAddresses(fp, functions), functions);
    }

    /**
     * The plan's udev rules for the VM's own functions, from its configuration: a rule that names a device
     * ({@code KERNEL=="0000:01:00.0"}, taken from a log line, or a placeholder when the log named none) is written
     * once for each function the VM has, never for an address a log line gave.
     */
    static FixPlan withAddresses(FixPlan fp, List<PciAddress> functions) {
        List<String> rules = new ArrayList<>();
        for (String rule : fp.udevRules()) {
            if (!UDEV_DEVICE.matcher(rule).find()) {
                rules.add(rule);
                continue;
            }
            for (PciAddress a : functions) {
                rules.add(UDEV_DEVICE.matcher(rule).replaceAll(java.util.regex.Matcher.quoteReplacement(
                        "KERNEL==\"" + a + "\"")));
            }
        }
        return new FixPlan(fp.kernelArguments(), fp.modprobe(), rules, fp.vmChanges(), fp.commands());
    }

    /** The device a udev rule names by its PCI address. */
    private static final java.util.regex.Pattern UDEV_DEVICE = java.util.regex.Pattern.compile("KERNEL==\"[^\"]*\"");

    /** The VM's functions and the other functions of their cards (a fix binding by ids binds them all). */
    private static List<PciAddress> slotFunctions(HostFacts facts, List<PciAddress> functions) {
        TreeSet<PciAddress> out = new TreeSet<>(functions);
        for (PciAddress a : functions) {
            facts.pci().devices().stream().map(d -> d.address()).filter(x -> x.sameSlot(a)).forEach(out::add);
        }
        return new ArrayList<>(out);
    }

    private static List<Message> hostSide(FixPlan fp) {
        List<Message> parts = new ArrayList<>();
        if (!fp.kernelArguments().isEmpty()) {
            parts.add(Message.of("side.kernel", String.join(" ", fp.kernelArguments())));
        }
        if (!fp.modprobe().isEmpty()) {
            parts.add(Message.of("side.modprobe"));
        }
        if (!fp.udevRules().isEmpty()) {
            parts.add(Message.of("side.udev"));
        }
        if (!fp.commands().isEmpty()) {
            parts.add(Message.of("side.commands"));
        }
        return parts;
    }
}
