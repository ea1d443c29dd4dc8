package io.gpuforge.app.diagnose;

import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.diagnose.LogSource;
import io.gpuforge.domain.vm.GuestExecResult;
import io.gpuforge.domain.vm.VmRef;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the guest says of its GPU, asked over its QEMU guest agent (a VM that runs, with the agent installed): on
 * Linux {@code nvidia-smi -L} and the kernel's lines of the GPU drivers ({@code nvidia}, {@code NVRM},
 * {@code amdgpu}, {@code nouveau}); on Windows the display devices with their Device Manager status and problem code
 * ({@code Get-PnpDevice}: Code 43 is problem 43). Each command has {@value #SECONDS} s; a guest that cannot be asked
 * is listed with why.
 */
final class GuestEvidence {

    static final int SECONDS = 20;

    private record Ask(String name, Message label, List<String> command) {
    }

    private GuestEvidence() {
    }

    /** Whether the cluster says the VM does not run (unknown when it cannot say: then the guest is asked). */
    private static boolean stopped(ConnectionSession s, VmRef vm) {
        try {
            return s.inventory().vms().stream().filter(v -> v.ref().equals(vm)).anyMatch(v -> v.state()
                    == io.gpuforge.domain.vm.VmState.STOPPED);
        } catch (BackendException x) {
            return false;
        }
    }

    static void of(ConnectionSession s, VmRef vm, Optional<String> osType, Evidence e) {
        boolean windows = osType.map(o -> o.toLowerCase(java.util.Locale.ROOT).startsWith("win")).orElse(false);
        List<Ask> asks = windows
                ? List.of(new Ask("the display devices of VM " + vm.id() + " (Get-PnpDevice)",
                        Message.of("log.guestDisplays", vm.id()), List.of("powershell",
                        "-NoProfile", "-NonInteractive", "-Command", "Get-PnpDevice -Class Display | Format-List"
                                + " FriendlyName,InstanceId,Status,Problem,ProblemDescription")))
                : List.of(new Ask("nvidia-smi -L in VM " + vm.id(), Message.of("log.guestNvidiaSmi", vm.id()),
                                List.of("nvidia-smi", "-L")),
                        new Ask("the GPU drivers' kernel lines in VM " + vm.id(), Message.of("log.guestKernel", vm.id()),
                                List.of("sh", "-c", "dmesg 2>&1"
                                + " | grep -iE 'nvidia|NVRM|amdgpu|nouveau' | tail -n 500")));
        if (stopped(s, vm)) {
            // only a running guest's agent answers: said once per question, in words, without asking
            asks.forEach(a -> e.missing(a.name(), a.label(), LogSource.GUEST, Message.of("read.guestStopped", vm.id()),
                    System.nanoTime()));
            return;
        }
        for (Ask a : asks) {
            long t0 = System.nanoTime();
            try {
                GuestExecResult r = s.guestExec(vm, a.command(), Duration.ofSeconds(SECONDS));
                String text = r.stdout() + (r.stderr().isBlank() ? "" : (r.stdout().endsWith("\n") || r.stdout()
                        .isEmpty() ? "" : "\n") + r.stderr());
                e.text(a.name(), a.label(), LogSource.GUEST, text, t0);
            } catch (BackendException x) {
                e.missing(a.name(), a.label(), LogSource.GUEST, Message.of("read.notAsked", a.label(),
                        String.valueOf(x.getMessage())), t0);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                e.missing(a.name(), a.label(), LogSource.GUEST, Message.of("read.askInterrupted", a.label()), t0);
                return;
            }
        }
    }
}
