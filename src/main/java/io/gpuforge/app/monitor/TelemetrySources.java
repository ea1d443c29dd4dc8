package io.gpuforge.app.monitor;

import io.gpuforge.app.host.HostAccess;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.host.SshLogin;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.pci.GpuPlacement;
import io.gpuforge.domain.telemetry.GpuTarget;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.pci.PciInventory;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmState;
import io.gpuforge.host.LocalShell;
import io.gpuforge.telemetry.ExporterSource;
import io.gpuforge.telemetry.GpuSource;
import io.gpuforge.telemetry.GuestAgentSource;
import io.gpuforge.telemetry.HwmonSource;
import io.gpuforge.telemetry.SimulatedGpuSource;
import io.gpuforge.telemetry.TelemetryThreads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which sources read a target's GPUs, chosen automatically: this computer's NVML, else its {@code nvidia-smi}
 * stream, plus amdgpu hwmon where there is an AMD GPU; a host over SSH (named on the spot, saved, or linked to a
 * node): one {@code nvidia-smi} stream and hwmon over one session; a sysroot's hwmon files; an exporter; a VM's
 * guest agent; a hypervisor connection's GPUs (inside its running VMs, and on its nodes' linked hosts; the Demo
 * lab's simulated). What they hold (an SSH session) closes with them.
 */
public final class TelemetrySources {

    /** Where to find NVML and nvidia-smi on this computer (tests point them at stubs). */
    public record Tools(Optional<String> nvmlLibrary, String nvidiaSmi) {
        public static Tools system() {
            return new Tools(Optional.ofNullable(System.getProperty("gpuforge.nvml")),
                    System.getProperty("gpuforge.nvidia-smi", "nvidia-smi"));
        }
    }

    /** The sources of a target and what closes with them. */
    record Opened(List<GpuSource> sources, List<AutoCloseable> held) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(TelemetrySources.class);
    /** Running VMs whose configuration is read to find their GPUs, at most. */
    static final int MAX_CONFIGS_READ = 200;
    private final Tools tools;
    private final Sessions sessions;
    private final TelemetryHosts hosts;

    TelemetrySources(Tools tools, TelemetryThreads threads, Sessions sessions, HostAccess access, Clock clock) {
        this.tools = tools;
        this.sessions = sessions;
        this.hosts = new TelemetryHosts(tools, threads, access, clock);
    }

    Tools tools() {
        return tools;
    }

    Opened open(GpuTarget target) throws TelemetryService.Failure {
        if (target instanceof GpuTarget.Local) {
            return new Opened(hosts.local(), List.of());
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
            List<AutoCloseable> held = new ArrayList<>();
            return new Opened(hosts.ssh(new HostTarget.Ssh(login((GpuTarget.Ssh) target)), Optional.empty(), true,
                    held), held);
        }
        if (target instanceof GpuTarget.Guest) {
            GpuTarget.Guest g = (GpuTarget.Guest) target;
            return new Opened(List.of(guest(session(g.connection()), g.vm())), List.of());
        }
        ConnectionInfo c = ((GpuTarget.Connection) target).connection();
        if (c.kind() == ConnectionInfo.Kind.SSH) {
            List<AutoCloseable> held = new ArrayList<>();
            return new Opened(hosts.ssh(new HostTarget.Saved(c), Optional.empty(), true, held), held);
        }
        return connection(session(c), true);
    }

    /** A hypervisor session the caller holds (named on the spot): the GPUs in one VM, or in all its running VMs. */
    Opened open(ConnectionSession session, Optional<VmRef> vm) throws TelemetryService.Failure {
        if (vm.isPresent()) {
            return new Opened(List.of(guest(session, vm.get())), List.of());
        }
        return connection(session, false);
    }

    private ConnectionSession session(ConnectionInfo c) throws TelemetryService.Failure {
        try {
            return sessions.of(c);
        } catch (IllegalArgumentException e) {
            throw new TelemetryService.Failure(e.getMessage(), e);
        }
    }

    /** The CLI's --ssh as the login HostAccess takes (the key's passphrase from GPUFORGE_SSH_KEY_PASSPHRASE). */
    static SshLogin login(GpuTarget.Ssh t) {
        return new SshLogin(t.userAtHost(), t.password(), t.identity(),
                Optional.ofNullable(System.getenv("GPUFORGE_SSH_KEY_PASSPHRASE")).map(String::toCharArray),
                t.knownHosts(), t.acceptNewHostKey()).withSshConfig(t.sshConfig()).withAgent(t.agent());
    }

    static GuestAgentSource guest(ConnectionSession s, VmRef ref) {
        return new GuestAgentSource((argv, timeout) -> s.guestExec(ref, argv, timeout),
                "VM " + ref.id() + " on " + ref.node(), "vm:" + ref.id() + "@" + ref.node(), Optional.of(ref.node()));
    }

    /**
     * A hypervisor connection: the Demo lab's GPUs are simulated; elsewhere the GPUs inside the running VMs that have
     * one and, for a saved connection, those on the hosts its nodes are linked to.
     */
    private Opened connection(ConnectionSession s, boolean saved) throws TelemetryService.Failure {
        ConnectionInfo c = s.connection();
        ClusterInventory inv;
        try {
            inv = withAssignments(s, s.inventory());
        } catch (BackendException | IllegalArgumentException e) {
            throw new TelemetryService.Failure("Cannot read the GPUs of " + c.name() + ": " + e.getMessage(), e);
        }
        if (c.kind() == ConnectionInfo.Kind.DEMO) {
            return new Opened(List.of(simulated(s, inv)), List.of());
        }
        List<GpuSource> out = new ArrayList<>();
        List<String> guests = new ArrayList<>();
        for (GpuInfo g : inv.gpus()) {
            Optional<VmInfo> vm = g.assignedTo().flatMap(inv::vm).filter(v -> v.state() == VmState.RUNNING);
            if (vm.isPresent() && !guests.contains(vm.get().ref().toString())) {
                guests.add(vm.get().ref().toString());
                out.add(guest(s, vm.get().ref()));
            }
        }
        List<AutoCloseable> held = new ArrayList<>();
        if (saved) {
            out.addAll(hosts.linked(c, inv.nodes().stream().map(NodeInfo::name).toList(), held));
        }
        if (out.isEmpty()) {
            throw new TelemetryService.Failure(c.name() + " has no running VM with a GPU passed through, and no node"
                    + " linked to a host with a GPU GPUForge can read: link a node to its SSH host (or read the host"
                    + " with --ssh)");
        }
        return new Opened(out, held);
    }

    /**
     * The inventory with the VM each GPU is in. Proxmox lists a VM's passed-through devices only in its configuration,
     * so where some GPU's assignment is not known the configurations of the running VMs are read (at most
     * {@value #MAX_CONFIGS_READ}) and the inventory asked again.
     */
    private static ClusterInventory withAssignments(ConnectionSession s, ClusterInventory inv) throws BackendException {
        if (inv.gpus().stream().allMatch(GpuInfo::assignmentKnown)) {
            return inv;
        }
        List<VmInfo> running = inv.vms().stream().filter(v -> !v.template() && v.state() == VmState.RUNNING).toList();
        if (running.size() > MAX_CONFIGS_READ) {
            LOG.info("{}: {} VMs run; the GPUs of the first {} are looked up", s.connection().name(), running.size(),
                    MAX_CONFIGS_READ);
        }
        for (VmInfo v : running.subList(0, Math.min(running.size(), MAX_CONFIGS_READ))) {
            try {
                s.readConfig(v.ref());
            } catch (BackendException e) {
                LOG.debug("{}: the configuration of {} could not be read: {}", s.connection().name(), v.ref(),
                        e.getMessage());
            }
        }
        return s.inventory();
    }

    /** The Demo lab's GPUs: every display device of every node, labelled with the VM it is assigned to. */
    private static SimulatedGpuSource simulated(ConnectionSession s, ClusterInventory inv)
            throws TelemetryService.Failure {
        ConnectionInfo c = s.connection();
        List<SimulatedGpuSource.Card> cards = new ArrayList<>();
        for (NodeInfo n : inv.nodes()) {
            PciInventory pci;
            try {
                pci = s.nodePci(n.name()).inventory();
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
        return new SimulatedGpuSource("demo:" + c.name(), cards, c.id());
    }

    /** A shell on the host of a target, for power limits; sudo where the login is not root. */
    HostAccess.Opened shellFor(GpuTarget target) throws TelemetryService.Failure {
        if (target instanceof GpuTarget.Ssh) {
            return hosts.shell(new HostTarget.Ssh(login((GpuTarget.Ssh) target)));
        }
        if (target instanceof GpuTarget.Connection
                && ((GpuTarget.Connection) target).connection().kind() == ConnectionInfo.Kind.SSH) {
            return hosts.shell(new HostTarget.Saved(((GpuTarget.Connection) target).connection()));
        }
        if (target instanceof GpuTarget.Local) {
            return new HostAccess.Opened(new LocalShell(), Optional.empty(), false, "local");
        }
        throw new TelemetryService.Failure("power limits are set on a host: use --local, --ssh USER@HOST or a saved"
                + " SSH host");
    }
}
