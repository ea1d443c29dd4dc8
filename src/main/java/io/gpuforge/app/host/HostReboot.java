package io.gpuforge.app.host;

import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.share.ContainerInfo;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.tasks.TaskOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Reboots a host after an apply or a rollback and waits until it is back: through the hypervisor's API for a node
 * of a connection that can ({@code Capability.NODE_REBOOT}, Proxmox VE), else {@code systemctl reboot} over its
 * shell. It is back when it answers with a new boot id. GPUForge never reboots the computer it runs on. Blocking:
 * background threads only; {@code cancelled} stops the waiting, never the reboot.
 */
public final class HostReboot {

    /** Where a reboot stands, for the progress shown. */
    public enum Phase { ASKED, GOING_DOWN, DOWN, BACK }

    /** Hears the phases, and how long the wait has taken so far, on the calling thread. */
    @FunctionalInterface
    public interface Progress {
        void phase(Phase phase, Duration waited, String detail);
    }

    /** How often to look, and how long to wait for the host to go down and then to come back. */
    public record Limits(Duration poll, Duration goDown, Duration comeBack) {
        public static Limits real() {
            return new Limits(Duration.ofSeconds(5), Duration.ofMinutes(5), Duration.ofMinutes(15));
        }
    }

    /** The boot ids before and after, and how long it took. */
    public record Result(String bootIdBefore, String bootIdAfter, Duration took) {
    }

    private static final String THIS_COMPUTER = "GPUForge does not reboot the computer it runs on: reboot it yourself,"
            + " then open the passthrough wizard again; it continues from the host's journal";
    private final HostAccess access;
    private final Sessions sessions;

    public HostReboot(HostAccess access, Sessions sessions) {
        this.access = access;
        this.sessions = sessions;
    }

    /** The limits for a target: a simulated host says how long its reboot may take; a real one gets generous ones. */
    public Limits limits(HostTarget target) {
        if (target instanceof HostTarget.Linked) {
            HostTarget.Linked l = (HostTarget.Linked) target;
            Optional<Duration> sim = access.simulated().rebootWait(l.connection(), l.node());
            if (sim.isPresent()) {
                return new Limits(Duration.ofMillis(200), sim.get(), sim.get());
            }
        }
        return Limits.real();
    }

    /** Whether GPUForge can reboot this host, and if not why (this computer, a sysroot, a listing). */
    public Optional<String> cannotReboot(HostTarget target) {
        if (target instanceof HostTarget.ThisComputer) {
            return Optional.of(THIS_COMPUTER);
        }
        if (!target.changeable() || target instanceof HostTarget.Sysroot) {
            return Optional.of(target.describe() + " is not a running host: there is nothing to reboot");
        }
        return Optional.empty();
    }

    /** The host's boot id now. */
    public String bootId(HostTarget target, HostKeyPrompt prompt) throws HostException {
        try (HostAccess.Opened h = access.open(target, prompt)) {
            if (h.sysroot().isPresent()) {
                throw new HostException(target.describe() + " is not a running host: there is nothing to reboot");
            }
            return HostScripts.bootId(h);
        }
    }

    /** Reboots the host and waits until it answers with a new boot id (or the limits run out: an error). */
    public Result reboot(HostTarget target, Progress progress, BooleanSupplier cancelled, HostKeyPrompt prompt)
            throws HostException, InterruptedException {
        Optional<String> no = cannotReboot(target);
        if (no.isPresent()) {
            throw new HostException(no.get());
        }
        List<String> running = runningGuests(target);
        if (!running.isEmpty()) {
            throw new HostException(underGuests(((HostTarget.Linked) target).node(), running));
        }
        String before = bootId(target, prompt);
        long start = System.nanoTime();
        if (!viaApi(target, progress, cancelled)) {
            try (HostAccess.Opened h = access.open(target, prompt)) {
                if (h.sysroot().isPresent() || h.describe().equals("local")) {
                    // a node linked to this computer: the same refusal
                    throw new HostException(h.sysroot().isPresent() ? target.describe() + " is not a running host:"
                            + " there is nothing to reboot" : THIS_COMPUTER);
                }
                progress.phase(Phase.ASKED, Duration.ZERO, h.describe() + ": systemctl reboot");
                try {
                    h.shell().run((h.sudo() ? "sudo -n " : "") + "systemctl reboot", new byte[0], HostScripts.LIMIT);
                } catch (HostException e) {
                    // the connection drops as the host goes down; whether it rebooted shows in its boot id
                    progress.phase(Phase.GOING_DOWN, Duration.ZERO, e.getMessage());
                }
            }
        }
        return waitForReturn(target, before, start, progress, cancelled, prompt);
    }

    /**
     * The running guests of a hypervisor's node ({@code train-01 (VM 101)}, {@code media-01 (CT 201)}); none for a
     * host that is not a node of a connection. A reboot under them is refused: GPUForge never stops a lab's guests.
     */
    public List<String> runningGuests(HostTarget target) throws HostException {
        if (!(target instanceof HostTarget.Linked) || !sessions.isHypervisor(((HostTarget.Linked) target).connection()
                .kind())) {
            return List.of();
        }
        HostTarget.Linked l = (HostTarget.Linked) target;
        try {
            return runningGuests(sessions.of(l.connection()), l.node());
        } catch (BackendException e) {
            throw new HostException("Which guests run on " + l.node() + " could not be read, so it is not rebooted: "
                    + e.getMessage(), e);
        }
    }

    /** The running VMs and containers of {@code node}, as {@code train-01 (VM 101)}. */
    public static List<String> runningGuests(ConnectionSession s, String node) throws BackendException {
        List<String> out = new ArrayList<>();
        for (VmInfo v : s.inventory().vmsOn(node)) {
            if (!v.template() && v.state().isRunning()) {
                out.add(v.name() + " (VM " + v.ref().id() + ")");
            }
        }
        if (s.can(Capability.CONTAINERS)) {
            for (ContainerInfo c : s.containers(node)) {
                if (c.running()) {
                    out.add(c.name() + " (CT " + c.vmid() + ")");
                }
            }
        }
        return out;
    }

    /** Why a node with running guests is not rebooted, and what to do. */
    public static String underGuests(String node, List<String> running) {
        return node + " runs " + String.join(", ", running) + ": GPUForge does not reboot a node under running guests."
                + " Shut them down or migrate them to another node first, then go on";
    }

    /** Through the hypervisor's API when the target is a node of a connection that reboots nodes. */
    private boolean viaApi(HostTarget target, Progress progress, BooleanSupplier cancelled)
            throws HostException, InterruptedException {
        if (!(target instanceof HostTarget.Linked)) {
            return false;
        }
        HostTarget.Linked l = (HostTarget.Linked) target;
        if (!sessions.isHypervisor(l.connection().kind())) {
            return false;
        }
        ConnectionSession s = sessions.of(l.connection());
        if (!s.can(Capability.NODE_REBOOT)) {
            return false;
        }
        progress.phase(Phase.ASKED, Duration.ZERO, l.connection().name() + ": reboot " + l.node() + " (API)");
        try {
            TaskOutcome t = s.rebootNode(l.node(), line -> progress.phase(Phase.ASKED, Duration.ZERO, line), cancelled);
            if (!t.ok()) {
                throw new HostException("The reboot of " + l.node() + " was refused: " + t.status());
            }
        } catch (BackendException e) {
            throw new HostException("The reboot of " + l.node() + " could not be asked for: " + e.getMessage(), e);
        }
        return true;
    }

    /**
     * Waits until the host answers with another boot id than {@code before}: after a reboot, or to pick up a wait
     * that was given up. An error when it does not: nothing is lost, the host's journal says where it stands.
     */
    public Result waitForReturn(HostTarget target, String before, long startNanos, Progress progress,
                                BooleanSupplier cancelled, HostKeyPrompt prompt) throws HostException, InterruptedException {
        Limits limits = limits(target);
        long goDown = startNanos + limits.goDown().toNanos();
        long deadline = startNanos + limits.goDown().toNanos() + limits.comeBack().toNanos();
        boolean wentDown = false;
        String last = "";
        while (true) {
            Duration waited = Duration.ofNanos(System.nanoTime() - startNanos);
            if (cancelled.getAsBoolean()) {
                throw new HostException("Stopped waiting for " + target.describe() + " after " + seconds(waited)
                        + ". Nothing is lost: when the host is back, open the passthrough wizard again; it continues from"
                        + " the host's journal.");
            }
            try {
                String now = bootId(target, prompt);
                if (!now.equals(before)) {
                    progress.phase(Phase.BACK, waited, target.describe() + " is back (boot id " + now + ")");
                    return new Result(before, now, waited);
                }
                progress.phase(Phase.GOING_DOWN, waited, target.describe() + " still runs its old boot");
                if (!wentDown && System.nanoTime() > goDown) {
                    throw new HostException(target.describe() + " did not go down within " + seconds(limits.goDown())
                            + ": it did not reboot. Reboot it yourself, then open the passthrough wizard again.");
                }
            } catch (HostException e) {
                if (e.getMessage().contains("did not go down")) {
                    throw e;
                }
                wentDown = true;
                last = e.getMessage();
                progress.phase(Phase.DOWN, waited, last);
            }
            if (System.nanoTime() > deadline) {
                throw new HostException(target.describe() + " did not come back within " + seconds(limits.goDown()
                        .plus(limits.comeBack())) + " (last: " + last + "). Nothing is lost: the changes are on the host"
                        + " and its journal says where it stands. When it is back, open the passthrough wizard again (or"
                        + " run gpuforge verify); it continues from there.");
            }
            Thread.sleep(limits.poll().toMillis());
        }
    }

    private static String seconds(Duration d) {
        long s = d.toSeconds();
        return s >= 120 ? s / 60 + " min" : s + " s";
    }
}
