package io.gpuforge.app.passthrough;

import io.gpuforge.app.words.Words;
import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.host.HostReboot;
import io.gpuforge.app.host.HostService;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.passthrough.VerifyItem;
import io.gpuforge.domain.vm.VmRef;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The whole passthrough of one GPU to one VM, as {@code gpuforge passthrough} runs it: the steps of
 * {@link PassthroughSteps} (check → apply → reboot → verify → attach), each step only where the host's state asks
 * for it (a host configured already goes to the reboot, one with everything in place straight to the attach),
 * stopping at the first failure with its reason and the way out. Blocking: background threads only.
 */
public final class PassthroughChain {

    /** Hears each step as it starts and each line of output, on the calling thread. */
    public interface Listener {
        void step(PassthroughSteps.State step, String detail);

        void line(String text);

        /** A wait's status, every poll: it replaces the last one (on a terminal; nothing for a log). */
        default void progress(String text) {
        }
    }

    /** What to pass through where: the host, the VM's connection, the VM, the card, the plan's options. */
    public record Request(HostTarget host, ConnectionSession session, VmRef vm, PciAddress device, PlanOptions options,
                          boolean primaryGpu, AttachPreflight.Held held) {
        public Request {
            Objects.requireNonNull(host);
            Objects.requireNonNull(session);
            Objects.requireNonNull(vm);
            Objects.requireNonNull(device);
            Objects.requireNonNull(options);
        }

        /** A VM that has a GPU already is refused. */
        public Request(HostTarget host, ConnectionSession session, VmRef vm, PciAddress device, PlanOptions options,
                       boolean primaryGpu) {
            this(host, session, vm, device, options, primaryGpu, AttachPreflight.Held.REFUSE);
        }
    }

    /** What was done: the host's status at the start, the apply, the reboot, the verify (each when done), the attach. */
    public record Outcome(PassthroughStatus before, PassthroughProposal proposal, Optional<PassthroughService.Applied> applied,
                          Optional<HostReboot.Result> reboot, Optional<PassthroughService.VerifyReport> verify,
                          GpuAttachResult attached) {
    }

    /** The chain stopped: at which step, and why (with the way out). */
    public static final class Stopped extends Exception {
        private static final long serialVersionUID = 1L;
        private final PassthroughSteps.State step;

        Stopped(PassthroughSteps.State step, String message, Throwable cause) {
            super(message, cause);
            this.step = step;
        }

        public PassthroughSteps.State step() {
            return step;
        }
    }

    private final PassthroughService passthrough;
    private final HostService hosts;
    private final HostReboot reboots;
    private final GpuAssignments assignments = new GpuAssignments();
    private final AttachPreflight attachCheck = new AttachPreflight(assignments);
    private final PassthroughPreflight preflight = new PassthroughPreflight(attachCheck);
    private final CheckMessages messages = new CheckMessages(Locale.ENGLISH);
    private final Words words = new Words(Locale.ENGLISH);

    public PassthroughChain(PassthroughService passthrough, HostService hosts, Sessions sessions) {
        this.passthrough = passthrough;
        this.hosts = hosts;
        this.reboots = passthrough.reboots(sessions);
    }

    /**
     * Reads the host and runs every check that can refuse, changing nothing: the whole passthrough as it would be done
     * now, or {@link Stopped} at {@link PassthroughSteps.State#CHECK} with every reason (a blocked card, an earlier
     * apply to roll back, a running VM, a GPU held elsewhere, a reboot under running guests…).
     */
    public PassthroughProposal propose(Request r, HostKeyPrompt prompt) throws Stopped {
        return propose(r, status(r, prompt));
    }

    private PassthroughStatus status(Request r, HostKeyPrompt prompt) throws Stopped {
        try {
            return passthrough.status(passthrough.settled(r.host(), prompt), r.device(), r.options());
        } catch (HostException ex) {
            throw new Stopped(PassthroughSteps.State.CHECK, ex.getMessage(), ex);
        }
    }

    private PassthroughProposal propose(Request r, PassthroughStatus status) throws Stopped {
        PassthroughSteps.Event e = PassthroughSteps.checked(status);
        if (e == PassthroughSteps.Event.BLOCKED) {
            throw new Stopped(PassthroughSteps.State.CHECK, "Passthrough of " + r.device() + " is blocked: "
                    + status.blockedBy().map(rep -> rep.checks().stream().filter(c -> c.status() == Check.Status.FAIL)
                            .map(this::explain).collect(Collectors.joining("; "))).orElse(""), null);
        }
        if (e == PassthroughSteps.Event.INTERRUPTED) {
            throw new Stopped(PassthroughSteps.State.CHECK, "An earlier apply on " + r.host().describe() + " ("
                    + status.journalId().orElse("?") + ") did not finish: run 'gpuforge rollback' first", null);
        }
        try {
            return preflight.propose(r, status);
        } catch (PassthroughPreflight.Refused ex) {
            throw new Stopped(PassthroughSteps.State.CHECK, ex.getMessage(), ex);
        } catch (BackendException ex) {
            throw new Stopped(PassthroughSteps.State.CHECK, ex.getMessage(), ex);
        }
    }

    /**
     * Runs the chain: the check and every pre-flight check first ({@link #propose}), then {@code confirm} sees the
     * whole plan once, and what follows applies that plan and nothing else: a host whose plan changed meanwhile is not
     * applied, a VM whose changes moved is not written (each stops with the new state to look at).
     */
    public Outcome run(Request r, Predicate<PassthroughProposal> confirm, Listener l, BooleanSupplier cancelled,
                       HostKeyPrompt prompt) throws Stopped, InterruptedException {
        PassthroughSteps.State s = PassthroughSteps.State.CHECK;
        PassthroughStatus status = null;
        PassthroughProposal proposal = null;
        Optional<PassthroughService.Applied> applied = Optional.empty();
        Optional<HostReboot.Result> rebooted = Optional.empty();
        Optional<PassthroughService.VerifyReport> verified = Optional.empty();
        GpuAttachResult attached = null;
        while (!s.ended()) {
            PassthroughSteps.State step = s;
            PassthroughSteps.Event e;
            String why = "";
            switch (s) {
                case CHECK:
                    l.step(step, r.host().describe() + ", " + r.device());
                    status = status(r, prompt);
                    proposal = propose(r, status);
                    if (!confirm.test(proposal)) {
                        throw new Stopped(step, "Not confirmed: nothing was changed", null);
                    }
                    e = PassthroughSteps.checked(status);
                    break;
                case APPLY:
                    l.step(step, status.plan().map(p -> "files to change: " + p.edits().size() + ", commands: "
                            + p.commands().size()).orElse(""));
                    PassthroughPlan shown = proposal.hostPlan().orElseThrow();
                    try {
                        applied = passthrough.apply(r.host(), r.device(), r.options(), p -> p.changesAs(shown),
                                new ApplyProgressLines(l::line, ApplyProgressLines.Style.TEXT), prompt);
                    } catch (HostException | PlanBlockedException ex) {
                        throw new Stopped(step, ex.getMessage(), ex);
                    }
                    e = PassthroughSteps.applied(applied.isPresent(), applied.map(a -> a.rebootNeeded()).orElse(false));
                    why = "The host's plan changed after it was shown (someone or something changed "
                            + r.host().describe() + "): nothing was changed. Run it again to see the new plan";
                    break;
                case REBOOT:
                    l.step(step, r.host().describe());
                    try {
                        rebooted = Optional.of(reboots.reboot(r.host(), new RebootProgress(l), cancelled, prompt));
                    } catch (HostException ex) {
                        throw new Stopped(step, ex.getMessage(), ex);
                    }
                    e = PassthroughSteps.Event.REBOOTED;
                    break;
                case VERIFY:
                    l.step(step, r.host().describe());
                    try {
                        verified = Optional.of(passthrough.verify(r.host(), prompt));
                    } catch (HostException ex) {
                        throw new Stopped(step, ex.getMessage(), ex);
                    }
                    verified.get().items().forEach(i -> l.line((i.ok() ? "ok     " : "FAILED ")
                            + words.text(i.detail())));
                    e = verified.get().ok() ? PassthroughSteps.Event.VERIFIED : PassthroughSteps.Event.NOT_AS_INTENDED;
                    why = "The host is not what the apply intended: " + verified.get().items().stream()
                            .filter(i -> !i.ok()).map(i -> words.text(i.detail())).collect(Collectors.joining("; "))
                            + ". Look at the host, or roll the apply back (gpuforge rollback)";
                    break;
                default:
                    l.step(step, r.vm() + " on " + r.session().connection().name());
                    attached = attach(r, proposal, step);
                    attached.changes().forEach(l::line);
                    e = PassthroughSteps.Event.ATTACHED;
                    break;
            }
            s = PassthroughSteps.next(s, e);
            if (s == PassthroughSteps.State.STOPPED) {
                throw new Stopped(step, why, null);
            }
        }
        return new Outcome(status, proposal, applied, rebooted, verified, attached);
    }

    /** The attach as confirmed: the VM's changes planned again must be the ones shown, else nothing is written. */
    private GpuAttachResult attach(Request r, PassthroughProposal proposal, PassthroughSteps.State step)
            throws Stopped {
        try {
            AttachPreflight.Result now = attachCheck.check(r.session(), r.vm(), r.device(), r.primaryGpu(), r.held());
            if (!now.ok()) {
                throw new Stopped(step, String.join("; ", now.refusals()) + ". Nothing was written to VM "
                        + r.vm().id(), null);
            }
            if (!now.version().equals(proposal.vmVersion()) || !now.changes().equals(proposal.vmChanges())) {
                throw new Stopped(step, "VM " + r.vm().id() + "'s configuration changed after the plan was shown:"
                        + " nothing was written to it. Its changes would now be: " + String.join("; ", now.changes())
                        + ". Run it again to confirm the new plan", null);
            }
            return assignments.attach(r.session(), now.request().orElseThrow());
        } catch (BackendException ex) {
            throw new Stopped(step, ex.getMessage(), ex);
        }
    }

    private String explain(Check c) {
        return messages.message(c) + messages.fix(c).map(f -> " (fix: " + f + ")").orElse("");
    }
}
