package io.gpuforge.hypervisor.proxmox;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.GuestExecResult;
import io.gpuforge.domain.vm.VmRef;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Runs a command inside a VM through PVE's guest-agent endpoints: {@code agent/exec} (argv, no shell) answers a
 * pid, then {@code agent/exec-status} is polled (every 100 ms at first, then less often, at most every second)
 * until it says {@code exited: 1} with the exit code and output, or the wait ends: then the result says the
 * command is still running. PVE's refusals are told with what to do: no agent configured, the VM not running,
 * the agent inside not answering. {@code agent/file-write} writes a file in the guest.
 */
final class PveGuestAgent {

    private static final long FIRST_POLL_MILLIS = 100;
    private static final long LAST_POLL_MILLIS = 1000;
    private final PveSession session;
    private final PveApi api;

    PveGuestAgent(PveSession session, PveApi api) {
        this.session = session;
        this.api = api;
    }

    GuestExecResult exec(VmRef vm, int vmid, List<String> argv, Duration timeout)
            throws BackendException, InterruptedException {
        if (argv.isEmpty() || argv.get(0).isBlank()) {
            throw new BackendException(BackendException.Kind.INVALID, "No command to run in VM " + vm.id());
        }
        long pid = agent(vm, () -> api.agentExec(vm.node(), vmid, argv));
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = FIRST_POLL_MILLIS;
        while (true) {
            PveApi.ExecStatus s = agent(vm, () -> api.agentExecStatus(vm.node(), vmid, pid));
            if (s.exited()) {
                return new GuestExecResult(true, s.exitCode().map(OptionalInt::of).orElse(OptionalInt.empty()), s.out(),
                        s.err());
            }
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return new GuestExecResult(false, OptionalInt.empty(), "", "");
            }
            Thread.sleep(Math.min(pause, left));
            pause = Math.min(pause * 2, LAST_POLL_MILLIS);
        }
    }

    /** Writes a file in the guest ({@code agent/file-write}); PVE's refusals told as for {@link #exec}. */
    void write(VmRef vm, int vmid, String file, byte[] content) throws BackendException {
        if (!file.startsWith("/")) {
            throw new BackendException(BackendException.Kind.INVALID, "A file in VM " + vm.id() + " is named by its"
                    + " absolute path, not '" + file + "'");
        }
        agent(vm, () -> {
            api.agentFileWrite(vm.node(), vmid, file, content);
            return null;
        });
    }

    private <T> T agent(VmRef vm, PveSession.Call<T> call) throws BackendException {
        try {
            return session.call(call);
        } catch (BackendException e) {
            Optional<String> why = explain(vm, e.getMessage());
            if (why.isPresent()) {
                throw new BackendException(BackendException.Kind.FAILED, why.get(), e);
            }
            throw e;
        }
    }

    /** What PVE's refusal of an agent call means for the user, and what to do about it. */
    static Optional<String> explain(VmRef vm, String pveMessage) {
        String m = pveMessage == null ? "" : pveMessage;
        String enable = " Install qemu-guest-agent in the guest (apt install qemu-guest-agent; systemctl enable --now"
                + " qemu-guest-agent) and enable it for the VM (Options → QEMU Guest Agent, or qm set " + vm.id()
                + " --agent enabled=1).";
        if (m.contains("No QEMU guest agent configured")) {
            return Optional.of("VM " + vm.id() + " has no QEMU guest agent configured, so commands cannot run in it."
                    + enable + " Then start the VM again.");
        }
        if (m.contains("QEMU guest agent is not running")) {
            return Optional.of("The QEMU guest agent of VM " + vm.id() + " is not running (or not installed)." + enable);
        }
        if (m.matches("(?s).*VM \\d+ (is )?not running.*")) {
            return Optional.of("VM " + vm.id() + " is not running: the QEMU guest agent answers only inside a running VM."
                    + " Start the VM first.");
        }
        return Optional.empty();
    }
}
