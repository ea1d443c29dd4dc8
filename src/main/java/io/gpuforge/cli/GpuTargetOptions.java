package io.gpuforge.cli;

import io.gpuforge.app.AdhocHypervisor;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.ConnectionSession;
import io.gpuforge.app.TelemetryService;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.GpuSample;
import io.gpuforge.domain.GpuTarget;
import io.gpuforge.domain.SourceStatus;
import io.gpuforge.domain.VmRef;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Where {@code gpuforge gpu …} reads GPUs: {@code --local | --ssh | --sysroot | --exporter | --pve | --libvirt | --connection}. */
final class GpuTargetOptions {

    static final class Which {
        @Option(names = "--local", description = "This computer (the default): NVML, else nvidia-smi; amdgpu hwmon.")
        boolean local;

        @Option(names = "--ssh", paramLabel = "USER@HOST[:PORT]", description = "A host over SSH.")
        String ssh;

        @Option(names = "--sysroot", paramLabel = "DIR", description = "A directory that mirrors a host's / (hwmon).")
        Path sysroot;

        @Option(names = "--exporter", paramLabel = "URL", description = "A DCGM exporter or nvidia_gpu_exporter"
                + " (http://host:9400/metrics).")
        String exporter;

        @Option(names = "--libvirt", paramLabel = "URI", description = "A libvirt connection (qemu:///system, qemu+ssh://…).")
        String libvirt;

        @Option(names = "--connection", paramLabel = "NAME", description = "A saved connection, by name (\"Demo lab\").")
        String connection;
    }

    @ArgGroup(exclusive = true)
    Which which = new Which();

    /**
     * {@code --pve URL} (with {@code --fingerprint}, {@code --user}, {@code --pve-password-stdin}): a saved Proxmox VE
     * connection at that URL, or one named on the spot with an API token from {@code GPUFORGE_PVE_TOKEN} or a
     * password login, as {@code gpuforge inventory --pve} does.
     */
    @Mixin
    PveOptions pve = new PveOptions();

    @Option(names = "--vm", paramLabel = "ID|NAME", description = "With --pve/--libvirt/--connection: read the GPUs"
            + " passed through to this VM, inside it (guest agent).")
    String vm;

    @Option(names = "--node", paramLabel = "NODE", description = "With --vm: the VM's node (found from the inventory"
            + " when left out).")
    String node;

    @Option(names = "--known-hosts", paramLabel = "FILE", description = "OpenSSH known_hosts file (default ~/.ssh/known_hosts).")
    Path knownHosts;

    @Option(names = "--accept-new-host-key",
            description = "Accept and remember a host key never seen before; a changed key is still refused.")
    boolean acceptNew;

    @Option(names = "--identity", paramLabel = "FILE", description = "Private key file (passphrase from GPUFORGE_SSH_KEY_PASSPHRASE).")
    Path identity;

    @Option(names = "--password-stdin", description = "Read the SSH password from the first line of stdin.")
    boolean passwordStdin;

    /** What the options name: a target the telemetry service opens, or a hypervisor session named on the spot. */
    static final class Named implements AutoCloseable {
        private final GpuTarget target;
        private final ConnectionSession session;
        private final Optional<VmRef> vm;

        private Named(GpuTarget target, ConnectionSession session, Optional<VmRef> vm) {
            this.target = target;
            this.session = session;
            this.vm = vm;
        }

        List<GpuSample> read(TelemetryService t, Duration wait) throws TelemetryService.Failure, InterruptedException {
            return session == null ? t.read(target, wait) : t.read(session, vm, wait);
        }

        TelemetryService.Watch watch(TelemetryService t, Duration interval, Consumer<GpuSample> samples,
                                     Consumer<SourceStatus> status) throws TelemetryService.Failure {
            return session == null ? t.watch(target, interval, samples, status)
                    : t.watch(session, vm, interval, samples, status);
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
        Optional<AdhocHypervisor> adhoc = adhoc(services, ctx);
        if (adhoc.isEmpty()) {
            return new Named(target(services, ctx), null, Optional.empty());
        }
        ConnectionSession s = ctx.sessions().adhoc(adhoc.get());
        try {
            Optional<VmRef> ref = vm == null ? Optional.empty()
                    : Optional.of(new VmRef(node != null ? node : nodeOf(s, vm), vm));
            return new Named(null, s, ref);
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /**
     * A hypervisor named on the spot: {@code --pve URL} with credentials given (or no saved connection there), or
     * {@code --libvirt URI} that is not a saved connection.
     */
    private Optional<AdhocHypervisor> adhoc(CliServices services, AppContext ctx) throws IOException {
        if (pve.present()) {
            if (which.local || which.ssh != null || which.sysroot != null || which.exporter != null
                    || which.libvirt != null || which.connection != null) {
                throw new IllegalArgumentException("--pve cannot be combined with --local, --ssh, --sysroot, --exporter,"
                        + " --libvirt or --connection");
            }
            boolean credentials = pve.user != null || System.getenv("GPUFORGE_PVE_TOKEN") != null;
            if (!credentials && savedAt(ctx, ConnectionInfo.Kind.PROXMOX, pve.url).isPresent()) {
                return Optional.empty();
            }
            return Optional.of(pve.hypervisor(services));
        }
        if (which.libvirt != null && savedAt(ctx, ConnectionInfo.Kind.LIBVIRT, which.libvirt).isEmpty()) {
            return Optional.of(AdhocHypervisor.libvirt(which.libvirt));
        }
        return Optional.empty();
    }

    private static Optional<ConnectionInfo> savedAt(AppContext ctx, ConnectionInfo.Kind kind, String address) {
        try {
            return ctx.connections().all().stream().filter(x -> x.kind() == kind && x.address().equals(address))
                    .findFirst();
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot read the saved connections: " + e.getMessage());
        }
    }

    /** Whether the user named where (a command that changes a host must not fall back to this computer). */
    boolean named() {
        Which w = which;
        return w.local || w.ssh != null || w.sysroot != null || w.exporter != null || w.libvirt != null
                || w.connection != null || pve.present();
    }

    /** A target on a host or a saved connection (power limits, and what is not named on the spot). */
    GpuTarget target(CliServices services, AppContext ctx) throws IOException {
        Which w = which;
        if (w.ssh != null) {
            Optional<char[]> password = passwordStdin ? Optional.ofNullable(services.readLine()).map(String::toCharArray)
                    : Optional.empty();
            Path kh = knownHosts != null ? knownHosts : Path.of(System.getProperty("user.home"), ".ssh", "known_hosts");
            return new GpuTarget.Ssh(w.ssh, Optional.ofNullable(identity), password, Optional.of(kh), acceptNew);
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
        Optional<ConnectionInfo> c = Optional.empty();
        if (w.connection != null) {
            c = saved(ctx, x -> x.name().equals(w.connection), "no saved connection named '" + w.connection + "'");
        } else if (pve.present()) {
            c = saved(ctx, x -> x.kind() == ConnectionInfo.Kind.PROXMOX && x.address().equals(pve.url),
                    "no saved Proxmox VE connection at " + pve.url + ": power limits are set on a host (--local,"
                            + " --ssh USER@HOST)");
        } else if (w.libvirt != null) {
            c = saved(ctx, x -> x.kind() == ConnectionInfo.Kind.LIBVIRT && x.address().equals(w.libvirt),
                    "--libvirt " + w.libvirt + " is not a saved connection: power limits are set on a host (--local,"
                            + " --ssh USER@HOST)");
        }
        if (c.isPresent()) {
            if (vm == null) {
                return new GpuTarget.Connection(c.get());
            }
            return new GpuTarget.Guest(c.get(), new VmRef(node != null ? node : nodeOf(ctx, c.get(), vm), vm));
        }
        if (vm != null) {
            throw new IllegalArgumentException("--vm needs --pve, --libvirt or --connection");
        }
        return new GpuTarget.Local();
    }

    private static Optional<ConnectionInfo> saved(AppContext ctx, Predicate<ConnectionInfo> p,
                                                  String missing) {
        List<ConnectionInfo> all;
        try {
            all = ctx.connections().all();
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot read the saved connections: " + e.getMessage());
        }
        return Optional.of(all.stream().filter(p).findFirst().orElseThrow(() -> new IllegalArgumentException(missing)));
    }

    private static String nodeOf(AppContext ctx, ConnectionInfo c, String vm) {
        return nodeOf(ctx.sessions().of(c), vm);
    }

    private static String nodeOf(ConnectionSession s, String vm) {
        try {
            return s.inventory().vms().stream().filter(v -> v.ref().id().equals(vm) || v.name().equals(vm)).findFirst()
                    .map(v -> v.ref().node()).orElseThrow(() -> new IllegalArgumentException("no VM '" + vm + "' on "
                            + s.connection().address()));
        } catch (BackendException e) {
            throw new IllegalArgumentException("cannot find the node of VM " + vm + " on " + s.connection().address()
                    + ": " + e.getMessage());
        }
    }
}
