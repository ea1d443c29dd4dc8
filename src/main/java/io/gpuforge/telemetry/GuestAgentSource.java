package io.gpuforge.telemetry;

import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.vm.GuestExecResult;
import io.gpuforge.domain.telemetry.SourceInfo;
import io.gpuforge.domain.telemetry.SourceKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The GPUs passed through to a VM, read inside it: the guest's {@code nvidia-smi} run by the QEMU guest agent
 * (Proxmox {@code agent/exec} + {@code exec-status}, libvirt {@code guest-exec}), once per tick. The host's driver
 * cannot see these GPUs, so this is the only way to read them. Errors of the agent are explained for the user.
 */
public final class GuestAgentSource implements GpuSource.Polled {

    /** Runs a command inside the VM (the backend's guest exec). */
    @FunctionalInterface
    public interface GuestRunner {
        GuestExecResult exec(List<String> argv, Duration timeout) throws BackendException, InterruptedException;
    }

    private static final Duration TIMEOUT = Duration.ofSeconds(8);
    private final GuestRunner runner;
    private final String vmLabel;
    private final String host;
    private final Optional<String> node;
    private final SourceInfo info;
    private volatile NvidiaSmiFields fields = NvidiaSmiFields.all();

    /**
     * @param vmLabel how the VM is named in messages and as the GPUs' VM ("VM 104 on pve1")
     * @param host    the GPU ids' host part ({@code vm:104@pve1})
     */
    public GuestAgentSource(GuestRunner runner, String vmLabel, String host, Optional<String> node) {
        this.runner = runner;
        this.vmLabel = vmLabel;
        this.host = host;
        this.node = node;
        this.info = new SourceInfo(SourceKind.GUEST_AGENT, host, vmLabel, "guest agent inside " + vmLabel);
    }

    @Override
    public SourceInfo info() {
        return info;
    }

    List<String> argv() {
        return List.of("nvidia-smi", "--query-gpu=" + fields.queryArgument(), "--format=csv,noheader,nounits");
    }

    @Override
    public List<GpuSample> poll(long nowMillis, int intervalMillis) throws SourceException {
        for (int attempt = 0; attempt < 8; attempt++) {
            GuestExecResult r = run();
            NvidiaSmiCsv csv = new NvidiaSmiCsv(fields);
            List<GpuSample> out = new ArrayList<>();
            String problem = "";
            Optional<String> refused = Optional.empty();
            for (String l : (r.stdout() + "\n" + r.stderr()).split("\n")) {
                NvidiaSmiCsv.Line line = csv.parse(l);
                if (line instanceof NvidiaSmiCsv.Row) {
                    out.add(((NvidiaSmiCsv.Row) line).sample(host, nowMillis, SourceKind.GUEST_AGENT).node(node)
                            .vm(Optional.of(vmLabel)).intervalMillis(intervalMillis).build());
                } else if (line instanceof NvidiaSmiCsv.FieldRefused) {
                    refused = Optional.of(((NvidiaSmiCsv.FieldRefused) line).field());
                } else if (line instanceof NvidiaSmiCsv.Problem && problem.isEmpty()) {
                    problem = ((NvidiaSmiCsv.Problem) line).message();
                }
            }
            if (refused.isPresent()) {
                Optional<NvidiaSmiFields> fewer = fields.without(refused.get());
                if (fewer.isPresent()) {
                    fields = fewer.get();
                    continue;
                }
            }
            if (!out.isEmpty()) {
                return out;
            }
            int code = r.exitCode().orElse(-1);
            if (code == 127 || problem.toLowerCase(Locale.ROOT).contains("not found")) {
                throw new SourceException("nvidia-smi is not installed inside " + vmLabel
                        + ": install the NVIDIA driver in the guest to see its GPU");
            }
            throw new SourceException("nvidia-smi inside " + vmLabel + " read no GPU"
                    + (code > 0 ? " (exit code " + code + ")" : "") + (problem.isEmpty() ? "" : ": " + problem)
                    + ". Check that the GPU is passed through and its driver is loaded in the guest.");
        }
        throw new SourceException("nvidia-smi inside " + vmLabel + " refuses every field GPUForge asks for");
    }

    private GuestExecResult run() throws SourceException {
        GuestExecResult r;
        try {
            r = runner.exec(argv(), TIMEOUT);
        } catch (BackendException e) {
            throw new SourceException(explain(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SourceException("reading " + vmLabel + " was interrupted", e);
        }
        if (!r.exited()) {
            throw new SourceException("nvidia-smi inside " + vmLabel + " did not finish within " + TIMEOUT.toSeconds()
                    + " s (the guest may be overloaded, or its GPU hung)");
        }
        return r;
    }

    /** What the agent's error means and what to do about it. */
    String explain(BackendException e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        String l = m.toLowerCase(Locale.ROOT);
        if (e.kind() == BackendException.Kind.UNSUPPORTED) {
            return "this connection cannot reach the guest agent of " + vmLabel + " (" + m + "): only QEMU/KVM"
                    + " (qemu:///system, qemu+ssh://…) and Proxmox VE run commands in a guest; read the GPU on its host"
                    + " instead (--ssh, or link the node to its SSH host)";
        }
        if (l.contains("no qemu guest agent configured") || l.contains("agent is not configured")) {
            return "the QEMU guest agent is not enabled for " + vmLabel + ": turn on the VM's guest agent option"
                    + " (Proxmox: Options → QEMU Guest Agent; libvirt: an org.qemu.guest_agent.0 channel) and restart it";
        }
        if (l.contains("agent is not running") || l.contains("guest agent") && l.contains("not running")
                || l.contains("not connected") || l.contains("guest agent is not responding")) {
            return "the QEMU guest agent in " + vmLabel + " is not running: install qemu-guest-agent in the guest and"
                    + " start it (systemctl enable --now qemu-guest-agent)";
        }
        if (l.contains("disabled") || l.contains("not allowed") || l.contains("forbidden") || l.contains("blocked")) {
            return "the guest agent of " + vmLabel + " does not allow running commands (guest-exec is disabled or"
                    + " blocked): remove guest-exec from the agent's block list in the guest (" + m + ")";
        }
        if (l.contains("failed to execute child process") || l.contains("no such file")) {
            return "nvidia-smi is not installed inside " + vmLabel
                    + ": install the NVIDIA driver in the guest to see its GPU";
        }
        if (l.contains("is not running") || l.contains("not running")) {
            return vmLabel + " is not running, so its GPU cannot be read (" + m + ")";
        }
        if (e.kind() == BackendException.Kind.AUTH) {
            return "the hypervisor refuses guest commands for " + vmLabel + " (" + m + "): the account needs the"
                    + " VM.Monitor privilege (Proxmox) or write access (libvirt)";
        }
        return "the guest agent of " + vmLabel + " failed: " + m;
    }

    @Override
    public void close() {
        // nothing held; the hypervisor session belongs to the caller
    }
}
