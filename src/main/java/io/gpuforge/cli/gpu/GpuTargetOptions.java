package io.gpuforge.cli.gpu;

import io.gpuforge.app.AppContext;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HypervisorTarget;
import io.gpuforge.cli.common.SshOptions;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.GpuTarget;
import io.gpuforge.domain.telemetry.SourceStatus;
import io.gpuforge.domain.vm.VmRef;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Where {@code gpuforge gpu …} reads GPUs: {@code --local | --ssh | --sysroot | --exporter | --pve | --libvirt | --connection}. */
final class GpuTargetOptions {

    static final class Which {
        @Option(names = "--local", description = "This computer (the default): NVML, else nvidia-smi; amdgpu hwmon.")
        boolean local;

        @Option(names = "--ssh", paramLabel = "[USER@]HOST[:PORT]", description = "A host over SSH; HOST may be a Host"
                + " alias of ~/.ssh/config. Logs in like ssh: the SSH agent, the config's or the default keys, a password.")
        String ssh;

        @Option(names = "--sysroot", paramLabel = "DIR", description = "A directory that mirrors a host's / with its"
                + " /sys/class/hwmon (a snapshot of gpuforge snapshot holds no readings).")
        Path sysroot;

        @Option(names = "--exporter", paramLabel = "URL", description = "A DCGM exporter or nvidia_gpu_exporter"
                + " (http://host:9400/metrics).")
        String exporter;
    }

    @ArgGroup(exclusive = true)
    Which which = new Which();

    /**
     * A hypervisor ({@code --connection NAME | --pve URL | --libvirt URI}, as every command spells it): its nodes'
     * GPUs, or with {@code --vm} those passed through to one VM ({@code --node}: its node, found when left out).
     */
    @Mixin
    HypervisorTarget hypervisor = new HypervisorTarget();

    @Option(names = "--vm", paramLabel = "ID|NAME", description = "With --pve/--libvirt/--connection: read the GPUs"
            + " passed through to this VM, inside it (guest agent).")
    String vm;

    /** How {@code --ssh} logs in, as in every command that takes it. */
    @Mixin
    SshOptions login = new SshOptions();

    /** What the options name: a target the telemetry service opens, or a hypervisor session named on the spot. */
    static final class Named implements AutoCloseable {
        private final GpuTarget target;
        private final ConnectionSession session;
        private final Optional<VmRef> vm;
        private final Optional<String> node;

        private Named(GpuTarget target, ConnectionSession session, Optional<VmRef> vm, Optional<String> node) {
            this.target = target;
            this.session = session;
            this.vm = vm;
            this.node = node;
        }

        /** Whether a reading is of the node {@code --node} names (every reading when none is named). */
        boolean onNode(GpuSample s) {
            return node.isEmpty() || s.node().map(node.get()::equals).orElse(false);
        }

        /** The hypervisor's connection and a session of it, when the options name one and no VM in it. */
        Optional<ConnectionSession> hypervisor(AppContext ctx) {
            if (vm.isPresent()) {
                return Optional.empty();
            }
            if (session != null) {
                return Optional.of(session);
            }
            return target instanceof GpuTarget.Connection c ? Optional.of(ctx.sessions().of(c.connection()))
                    : Optional.empty();
        }

        List<GpuSample> read(TelemetryService t, Duration wait) throws TelemetryService.Failure, InterruptedException {
            return session == null ? t.read(target, wait) : t.read(session, vm, wait);
        }

        TelemetryService.Watch watch(TelemetryService t, Duration interval, TelemetryService.Batches batches,
                                     Consumer<SourceStatus> status) throws TelemetryService.Failure {
            return session == null ? t.watchBatches(target, interval, batches, status)
                    : t.watchBatches(session, vm, interval, batches, status);
        }

        @Override
        public void close() {
            if (session != null) {
                session.close();
            }
        }
    }

    /** The target or the session the options name; a usage error (IllegalArgumentException) when they make no sense. */
    Named named(CliServices services, AppContext ctx) throws IOException {
        if (!hypervisor.present()) {
            return new Named(target(services, ctx), null, Optional.empty(), Optional.empty());
        }
        ConnectionInfo c = hypervisorConnection(services, ctx);
        Optional<String> node = Optional.ofNullable(hypervisor.node);
        if (node.isPresent()) {
            requireNode(ctx.sessions().of(c), node.get());
        }
        if (c.saved()) {
            return new Named(target(c, ctx), null, Optional.empty(), node);
        }
        ConnectionSession s = ctx.sessions().of(c);
        Optional<VmRef> ref = vm == null ? Optional.empty()
                : Optional.of(new VmRef(hypervisor.node != null ? hypervisor.node : nodeOf(s, vm), vm));
        return new Named(null, s, ref, node);
    }

    /** A usage error naming the nodes there are, when {@code node} is none of them. */
    private static void requireNode(ConnectionSession s, String node) {
        try {
            HypervisorTarget.requireNode(s, node);
        } catch (BackendException e) {
            throw new IllegalArgumentException("cannot list the nodes of " + s.connection().name() + ": "
                    + e.getMessage());
        }
    }

    /** The hypervisor's connection, alone: with one, no host option goes. */
    private ConnectionInfo hypervisorConnection(CliServices services, AppContext ctx) throws IOException {
        Which w = which;
        if (w.local || w.ssh != null || w.sysroot != null || w.exporter != null) {
            throw new IllegalArgumentException("--connection, --pve and --libvirt cannot be combined with --local, --ssh,"
                    + " --sysroot or --exporter");
        }
        return hypervisor.connection(services, ctx);
    }

    private GpuTarget target(ConnectionInfo c, AppContext ctx) {
        if (vm == null) {
            return new GpuTarget.Connection(c);
        }
        return new GpuTarget.Guest(c, new VmRef(hypervisor.node != null ? hypervisor.node
                : nodeOf(ctx.sessions().of(c), vm), vm));
    }

    /** The node {@code --node} names, if any. */
    Optional<String> nodeNamed() {
        return Optional.ofNullable(hypervisor.node);
    }

    /** Whether the user named where (a command that changes a host must not fall back to this computer). */
    boolean named() {
        Which w = which;
        return w.local || w.ssh != null || w.sysroot != null || w.exporter != null || hypervisor.present();
    }

    /** A target on a host or a saved connection (power limits, and what is not named on the spot). */
    GpuTarget target(CliServices services, AppContext ctx) throws IOException {
        Which w = which;
        if (w.ssh != null) {
            return new GpuTarget.Ssh(w.ssh, Optional.ofNullable(login.identity), login.password(services),
                    Optional.ofNullable(login.knownHosts), login.acceptNew, Optional.ofNullable(login.sshConfig),
                    !login.noAgent);
        }
        if (w.sysroot != null) {
            return new GpuTarget.Sysroot(w.sysroot);
        }
        if (w.exporter != null) {
            try {
                URI u = new URI(w.exporter.contains("://") ? w.exporter : "http://" + w.exporter);
                return new GpuTarget.Exporter(u.getPath() == null || u.getPath().isEmpty() ? u.resolve("/metrics") : u);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("--exporter needs a URL such as http://gpu1:9400/metrics: " + e.getMessage());
            }
        }
        if (hypervisor.present()) {
            ConnectionInfo c = hypervisorConnection(services, ctx);
            if (!c.saved()) {
                throw new IllegalArgumentException(hypervisor.describe() + " is not a saved connection: power limits"
                        + " are set on a host (--local, --ssh USER@HOST) or through a saved connection's host link");
            }
            return target(c, ctx);
        }
        if (vm != null) {
            throw new IllegalArgumentException("--vm needs --pve, --libvirt or --connection");
        }
        return new GpuTarget.Local();
    }

    private static String nodeOf(ConnectionSession s, String vm) {
        try {
            return s.inventory().vms().stream().filter(v -> v.ref().id().equals(vm) || v.name().equals(vm)).findFirst()
                    .map(v -> v.ref().node()).orElseThrow(() -> new IllegalArgumentException("no VM '" + vm + "' on "
                            + s.connection().name() + " (give its id or name: gpuforge inventory --connection NAME"
                            + " lists them)"));
        } catch (BackendException e) {
            throw new IllegalArgumentException("cannot find the node of VM " + vm + " on " + s.connection().address()
                    + ": " + e.getMessage());
        }
    }
}
