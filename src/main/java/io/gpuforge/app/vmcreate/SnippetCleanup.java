package io.gpuforge.app.vmcreate;

import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.app.tasks.TaskLog;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.GuestExecResult;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.tasks.TaskRef;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The user-data snippet of a Proxmox VE VM ({@link CloudInitSnippets}) removed once it is no longer needed: after
 * the VM's first boot reported done (the guest agent runs {@code cloud-init status --wait}; a boot that ended with
 * errors is done too), or at once when asked. The snippet goes, {@code cicustom} keeps only the meta-data snippet
 * (so Proxmox VE writes its own user-data from its fields at the next start, under the same instance-id: nothing of
 * the first boot runs again), and the VM's cloud-init drive is written again from those fields, so the secrets are
 * gone from the drive too. Each run is a task of its own in the task log. Blocking; cancellable between steps.
 */
public final class SnippetCleanup {

    /** How long a first boot may take (a CUDA stack's packages, a reboot for the driver). */
    public static final Duration FIRST_BOOT_WAIT = Duration.ofHours(2);
    private static final Duration ONE_WAIT = Duration.ofMinutes(10);
    private static final long FIRST_PAUSE_MILLIS = 1_000;
    private static final long LAST_PAUSE_MILLIS = 30_000;
    static final String ACTION = "vm.snippet-cleanup";

    private final Sessions sessions;
    private final CloudInitSnippets snippets;
    private final TaskLog taskLog;
    private final Clock clock;
    private final Duration firstBootWait;

    SnippetCleanup(Sessions sessions, CloudInitSnippets snippets, TaskLog taskLog, Clock clock, Duration firstBootWait) {
        this.sessions = sessions;
        this.snippets = snippets;
        this.taskLog = taskLog;
        this.clock = clock;
        this.firstBootWait = Objects.requireNonNull(firstBootWait);
    }

    /** A VM whose user-data snippet is still on its node: the VM, and the snippet volumes {@code cicustom} names. */
    public record Pending(ConnectionInfo connection, VmRef vm, String userVolume, String metaVolume) {
        public Pending {
            Objects.requireNonNull(connection);
            Objects.requireNonNull(vm);
            Objects.requireNonNull(userVolume);
            Objects.requireNonNull(metaVolume);
        }
    }

    /** How it went: removed, or why not (and how to remove it later). */
    public record Outcome(boolean removed, String message) {
    }

    /** The command that removes the snippet later. */
    public static String later(Pending p) {
        return "gpuforge vm remove-snippet " + p.vm().id() + " --node " + p.vm().node() + " "
                + CommandHints.target(p.connection());
    }

    /** The snippet of a VM, read from its {@code cicustom}; empty when none of GPUForge's user-data is set there. */
    public Optional<Pending> pending(ConnectionInfo c, VmRef vm) throws BackendException {
        List<String> ours = ours(c, sessions.of(c), vm);
        Optional<String> user = ours.stream().filter(v -> v.endsWith("-user.yaml")).findFirst();
        Optional<String> meta = ours.stream().filter(v -> v.endsWith("-meta.yaml")).findFirst();
        return user.map(u -> new Pending(c, vm, u, meta.orElse(u.replaceAll("-user\\.yaml$", "-meta.yaml"))));
    }

    /**
     * Waits for the first boot of the (started) VM to report done, then removes the snippet. Where the guest agent
     * cannot say (none configured, no answer within the wait), the snippet stays and the message says how to remove
     * it.
     */
    public Outcome afterFirstBoot(Pending p, TaskListener progress, BooleanSupplier cancelled, HostKeyPrompt hostKeys)
            throws InterruptedException {
        return recorded(p, "Remove the cloud-init snippet of VM " + p.vm().id() + " after its first boot", progress,
                l -> {
                    Optional<String> notDone = waitForFirstBoot(p, l, cancelled);
                    if (notDone.isPresent()) {
                        return new Outcome(false, notDone.get() + " The snippet " + p.userVolume() + " stays on "
                                + p.vm().node() + "; remove it once the first boot is done: " + later(p) + " --now");
                    }
                    return remove(p, l, hostKeys);
                });
    }

    /**
     * Deletes a VM and then the snippets GPUForge wrote for it (read from its {@code cicustom} first: user-data and
     * meta-data); a snippet that cannot be removed is said in a line with the file, the delete stands.
     */
    public TaskOutcome deleteVm(ConnectionInfo c, VmRef vm, TaskListener progress, BooleanSupplier cancelled,
                                HostKeyPrompt hostKeys) throws BackendException, InterruptedException {
        ConnectionSession s = sessions.of(c);
        List<String> ours = ours(c, s, vm);
        TaskOutcome out = s.deleteVm(vm, progress, cancelled);
        if (out.ok() && !ours.isEmpty()) {
            try {
                List<String> gone = snippets.remove(c, vm.node(), ours, hostKeys);
                progress.line(gone.isEmpty() ? "No cloud-init snippet of VM " + vm.id() + " was left on " + vm.node()
                        : "Removed the cloud-init snippets of VM " + vm.id() + ": " + String.join(", ", gone));
            } catch (CloudInitSnippets.NotWritten e) {
                progress.line("The cloud-init snippets of VM " + vm.id() + " (" + String.join(", ", ours) + ") could"
                        + " not be removed from " + vm.node() + ": " + e.getMessage() + "; remove them on the node"
                        + " (they hold the template's secrets)");
            }
        }
        return out;
    }

    /**
     * The snippets of GPUForge's a VM's {@code cicustom} names: none on a libvirt host, which has no snippets
     * (its configuration is not read for them).
     */
    private static List<String> ours(ConnectionInfo c, ConnectionSession s, VmRef vm) throws BackendException {
        if (c.kind() != ConnectionInfo.Kind.PROXMOX && c.kind() != ConnectionInfo.Kind.DEMO) {
            return List.of();
        }
        return CloudInitSnippets.ours(s.readConfig(vm).settings().getOrDefault("cicustom", ""));
    }

    /** Removes the snippet now, whether or not the first boot is done ({@code gpuforge vm remove-snippet --now}). */
    public Outcome now(Pending p, TaskListener progress, HostKeyPrompt hostKeys) throws InterruptedException {
        return recorded(p, "Remove the cloud-init snippet of VM " + p.vm().id(), progress, l -> remove(p, l, hostKeys));
    }

    @FunctionalInterface
    private interface Step {
        Outcome run(TaskListener progress) throws InterruptedException;
    }

    private Outcome recorded(Pending p, String description, TaskListener progress, Step step)
            throws InterruptedException {
        if (taskLog == null) {
            Outcome o = step.run(progress);
            progress.line(o.message());
            return o;
        }
        TaskLog.Running entry = taskLog.begin(p.connection(), ACTION, p.vm().toString(), description);
        TaskListener both = line -> {
            entry.line(line);
            progress.line(line);
        };
        try {
            Outcome o = step.run(both);
            both.line(o.message());
            entry.finish(new TaskOutcome(new TaskRef("gpuforge:" + ACTION, p.vm().node(), ACTION, p.vm().id()), o.removed(), o.message(),
                    List.of(), Optional.empty()));
            return o;
        } catch (InterruptedException | RuntimeException e) {
            entry.failed(e);
            throw e;
        }
    }

    private Outcome remove(Pending p, TaskListener out, HostKeyPrompt hostKeys) {
        List<String> gone;
        try {
            gone = snippets.remove(p.connection(), p.vm().node(), List.of(p.userVolume()), hostKeys);
        } catch (CloudInitSnippets.NotWritten e) {
            return new Outcome(false, "The snippet " + p.userVolume() + " could not be removed from " + p.vm().node()
                    + ": " + e.getMessage() + ". Remove it later: " + later(p) + " --now");
        }
        out.line(gone.isEmpty() ? "The snippet " + p.userVolume() + " was not there any more"
                : "Removed " + String.join(", ", gone) + " from " + p.vm().node());
        ConnectionSession s = sessions.of(p.connection());
        try {
            VmConfig cfg = s.readConfig(p.vm());
            if (cfg.settings().getOrDefault("cicustom", "").contains(p.userVolume())) {
                s.writeConfig(p.vm(), new ConfigChange.Settings(Map.of("cicustom", Optional.of("meta="
                        + p.metaVolume()))), cfg.version());
                out.line("cicustom of VM " + p.vm().id() + " is meta=" + p.metaVolume() + " now (the instance-id"
                        + " stays, so nothing of the first boot runs again)");
            }
            s.regenerateCloudInit(p.vm());
            out.line("The cloud-init drive of VM " + p.vm().id() + " was written again from Proxmox VE's fields");
        } catch (BackendException e) {
            return new Outcome(true, "The snippet is removed, but VM " + p.vm().id() + "'s configuration could not be"
                    + " changed (" + e.getMessage() + "): set cicustom to meta=" + p.metaVolume() + " before its next"
                    + " start, else Proxmox VE cannot start it");
        }
        return new Outcome(true, "The cloud-init snippet of VM " + p.vm().id() + " with the template's secrets is"
                + " removed from " + p.vm().node());
    }

    /** Empty once {@code cloud-init status --wait} ended in the guest; else why it could not be told. */
    private Optional<String> waitForFirstBoot(Pending p, TaskListener out, BooleanSupplier cancelled)
            throws InterruptedException {
        ConnectionSession s = sessions.of(p.connection());
        out.line("Waiting for the first boot of VM " + p.vm().id() + " to finish (cloud-init status --wait over the"
                + " guest agent, up to " + firstBootWait.toMinutes() + " min)");
        long deadline = clock.millis() + firstBootWait.toMillis();
        long pause = FIRST_PAUSE_MILLIS;
        String last = "";
        while (true) {
            if (cancelled.getAsBoolean()) {
                return Optional.of("Cancelled while waiting for the first boot of VM " + p.vm().id() + ".");
            }
            long left = deadline - clock.millis();
            if (left <= 0) {
                return Optional.of("The first boot of VM " + p.vm().id() + " did not report done within "
                        + firstBootWait.toMinutes() + " min" + (last.isEmpty() ? "." : " (" + last + ")."));
            }
            try {
                GuestExecResult r = s.guestExec(p.vm(), List.of("cloud-init", "status", "--wait"),
                        Duration.ofMillis(Math.min(left, ONE_WAIT.toMillis())));
                if (r.exited()) {
                    int code = r.exitCode().orElse(-1);
                    String status = r.stdout().strip().replace('\n', ' ');
                    out.line("cloud-init in VM " + p.vm().id() + ": " + (status.isEmpty() ? "exit " + code : status));
                    return Optional.empty(); // done, done with errors (1) or degraded (2): the boot is over
                }
                continue;
            } catch (BackendException e) {
                last = String.valueOf(e.getMessage()).strip();
                if (last.toLowerCase(Locale.ROOT).contains("no qemu guest agent configured")) {
                    return Optional.of("VM " + p.vm().id() + " has no QEMU guest agent, so GPUForge cannot tell when"
                            + " its first boot is done.");
                }
            }
            for (long slept = 0; slept < pause; slept += 100) {
                if (cancelled.getAsBoolean()) {
                    return Optional.of("Cancelled while waiting for the first boot of VM " + p.vm().id() + ".");
                }
                Thread.sleep(100);
            }
            pause = Math.min(pause * 2, LAST_PAUSE_MILLIS);
        }
    }
}
