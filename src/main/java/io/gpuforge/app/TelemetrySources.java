package io.gpuforge.app;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.GpuPlacement;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.PciInventory;
import io.gpuforge.domain.GpuTarget;
import io.gpuforge.domain.VmInfo;
import io.gpuforge.domain.VmRef;
import io.gpuforge.domain.VmState;
import io.gpuforge.host.HostKeyPolicy;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.LocalShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.SshShell;
import io.gpuforge.host.SshTarget;
import io.gpuforge.telemetry.ExporterSource;
import io.gpuforge.telemetry.GpuSource;
import io.gpuforge.telemetry.GuestAgentSource;
import io.gpuforge.telemetry.HwmonSource;
import io.gpuforge.telemetry.LocalLineStreams;
import io.gpuforge.telemetry.Nvml;
import io.gpuforge.telemetry.NvmlSource;
import io.gpuforge.telemetry.NvidiaSmiStream;
import io.gpuforge.telemetry.SimulatedGpuSource;
import io.gpuforge.telemetry.SourceException;
import io.gpuforge.telemetry.TelemetryThreads;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which sources read a target's GPUs, chosen automatically: this computer's NVML, else its {@code nvidia-smi}
 * stream, plus amdgpu hwmon where there is an AMD GPU; a sysroot's hwmon files; an exporter; a VM's guest agent;
 * a hypervisor connection's GPUs (the Demo lab's simulated). What they hold (an SSH session) closes with them.
 */
final class TelemetrySources {

    /** Where to find NVML and nvidia-smi (tests point them at stubs). */
    record Tools(Optional<String> nvmlLibrary, String nvidiaSmi) {
        static Tools system() {
            return new Tools(Optional.ofNullable(System.getProperty("gpuforge.nvml")),
                    System.getProperty("gpuforge.nvidia-smi", "nvidia-smi"));
        }
    }

    /** The sources of a target and what closes with them. */
    record Opened(List<GpuSource> sources, List<AutoCloseable> held) {
    }

    private final Tools tools;
    private final TelemetryThreads threads;
    private final Sessions sessions;
    private final Path knownHosts;
    private final Clock clock;

    TelemetrySources(Tools tools, TelemetryThreads threads, Sessions sessions, Path knownHosts, Clock clock) {
        this.tools = tools;
        this.threads = threads;
        this.sessions = sessions;
        this.knownHosts = knownHosts;
        this.clock = clock;
    }

    Opened open(GpuTarget target) throws TelemetryService.Failure {
        if (target instanceof GpuTarget.Local) {
            return local();
        }
        if (target instanceof GpuTarget.Sysroot) {
            Path dir = ((GpuTarget.Sysroot) target).dir();
            if (!Files.isDirectory(dir)) {
                throw new TelemetryService.Failure("--sysroot must be a directory that mirrors a host's /: " + dir);
            }
            return new Opened(List.of(HwmonSource.local(dir, "sysroot:" + dir, Optional.empty())), List.of());
        }
        if (target instanceof GpuTarget.Exporter) {
            return new Opened(List.of(new ExporterSource(((GpuTarget.Exporter) target).url())), List.of());
        }
        if (target instanceof GpuTarget.Ssh) {
            return ssh((GpuTarget.Ssh) target);
        }
        if (target instanceof GpuTarget.Guest) {
            GpuTarget.Guest g = (GpuTarget.Guest) target;
            return new Opened(List.of(guest(g.connection(), g.vm().node(), g.vm().id())), List.of());
        }
        return connection(((GpuTarget.Connection) target).connection());
    }

    private Opened local() throws TelemetryService.Failure {
        List<GpuSource> out = new ArrayList<>();
        String why;
        try {
            out.add(new NvmlSource(Nvml.load(tools.nvmlLibrary()), "local"));
            why = "";
        } catch (SourceException e) {
            why = e.getMessage();
            if (onPath(tools.nvidiaSmi())) {
                out.add(new NvidiaSmiStream(new LocalLineStreams(threads.pool()), "local", tools.nvidiaSmi(),
                        Optional.empty(), clock));
            }
        }
        HwmonSource amd = HwmonSource.local(Path.of("/"), "local", Optional.empty());
        if (hasAmd(amd)) {
            out.add(amd);
        }
        if (out.isEmpty()) {
            throw new TelemetryService.Failure("No GPU source on this computer: " + why + "; nvidia-smi is not on the"
                    + " PATH and there is no amdgpu card. A GPU passed through to a VM is read inside it (--pve … --vm).");
        }
        return new Opened(out, List.of());
    }

    private static boolean hasAmd(HwmonSource s) {
        try {
            return !s.poll(0, 1000).isEmpty();
        } catch (SourceException e) {
            return false;
        }
    }

    static boolean onPath(String command) {
        if (command.contains("/")) {
            return new File(command).canExecute();
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            if (new File(dir, command).canExecute()) {
                return true;
            }
        }
        return false;
    }

    private Opened ssh(GpuTarget.Ssh t) throws TelemetryService.Failure {
        SshShell shell = connect(t);
        String host = "ssh:" + shell.describe().replaceFirst("^ssh:", "");
        List<GpuSource> out = new ArrayList<>();
        HwmonSource amd = HwmonSource.shell(shell, host, Optional.empty());
        if (hasAmd(amd)) {
            out.add(amd);
        }
        if (out.isEmpty()) {
            shell.close();
            throw new TelemetryService.Failure("No AMD GPU on " + t.userAtHost() + ", and the nvidia-smi stream over"
                    + " SSH needs the streaming shell of host/ (not in this build yet): read NVIDIA GPUs on that host"
                    + " with an exporter (--exporter http://HOST:9400/metrics) or run gpuforge there with --local.");
        }
        return new Opened(out, List.of(shell));
    }

    SshShell connect(GpuTarget.Ssh t) throws TelemetryService.Failure {
        try {
            SshTarget target = SshTarget.parse(t.userAtHost(), System.getProperty("user.name"));
            return SshShell.connect(target, new SshShell.Credentials(t.password(), t.identity(),
                    Optional.ofNullable(System.getenv("GPUFORGE_SSH_KEY_PASSPHRASE")).map(String::toCharArray)),
                    t.knownHosts().orElse(knownHosts), t.acceptNewHostKey() ? HostKeyPolicy.acceptNew()
                            : HostKeyPolicy.refuseUnknown(), Duration.ofSeconds(20));
        } catch (ProbeException | IllegalArgumentException e) {
            throw new TelemetryService.Failure(e.getMessage(), e);
        }
    }

    GuestAgentSource guest(ConnectionInfo c, String node, String vmId) {
        ConnectionSession s = sessions.of(c);
        VmRef ref = new VmRef(node, vmId);
        return new GuestAgentSource((argv, timeout) -> s.guestExec(ref, argv, timeout), "VM " + vmId + " on " + node,
                "vm:" + vmId + "@" + node, Optional.of(node));
    }

    /** A hypervisor connection: the Demo lab's GPUs are simulated; elsewhere the running VMs with a GPU. */
    private Opened connection(ConnectionInfo c) throws TelemetryService.Failure {
        ClusterInventory inv;
        try {
            inv = sessions.of(c).inventory();
        } catch (BackendException | IllegalArgumentException e) {
            throw new TelemetryService.Failure("Cannot read the GPUs of " + c.name() + ": " + e.getMessage(), e);
        }
        if (c.kind() == ConnectionInfo.Kind.DEMO) {
            List<SimulatedGpuSource.Card> cards = new ArrayList<>();
            for (NodeInfo n : inv.nodes()) {
                PciInventory pci;
                try {
                    pci = sessions.of(c).nodePci(n.name()).inventory();
                } catch (BackendException e) {
                    throw new TelemetryService.Failure("Cannot read the GPUs of " + n.name() + ": " + e.getMessage(), e);
                }
                for (GpuPlacement g : pci.gpus()) {
                    Optional<String> vm = inv.gpus().stream().filter(x -> x.node().equals(n.name())
                            && x.address().equals(g.address())).findFirst().flatMap(GpuInfo::assignedTo)
                            .flatMap(inv::vm).map(VmInfo::name);
                    String name = pci.device(g.address()).flatMap(d -> d.name()).orElse("GPU");
                    cards.add(SimulatedGpuSource.card(n.name(), g.address().toString(), name, vm));
                }
            }
            return new Opened(List.of(new SimulatedGpuSource("demo:" + c.name(), cards, c.id())), List.of());
        }
        List<GpuSource> out = new ArrayList<>();
        for (GpuInfo g : inv.gpus()) {
            g.assignedTo().flatMap(inv::vm).filter(v -> v.state() == VmState.RUNNING)
                    .ifPresent(v -> out.add(guest(c, v.ref().node(), v.ref().id())));
        }
        if (out.isEmpty()) {
            throw new TelemetryService.Failure(c.name() + " has no running VM with a GPU passed through; GPUs still on"
                    + " their host are read on the host (link the node to its SSH host, or --ssh)");
        }
        return new Opened(out, List.of());
    }

    /** A shell on the host of a target, for power limits. */
    HostShell shellFor(GpuTarget target) throws TelemetryService.Failure {
        if (target instanceof GpuTarget.Ssh) {
            return connect((GpuTarget.Ssh) target);
        }
        if (target instanceof GpuTarget.Local) {
            return new LocalShell();
        }
        throw new TelemetryService.Failure("power limits are set on a host: use --local or --ssh USER@HOST");
    }
}
