package io.gpuforge.cli;

import io.gpuforge.app.AppContext;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.GpuTarget;
import io.gpuforge.domain.VmRef;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import picocli.CommandLine.ArgGroup;
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

        @Option(names = "--pve", paramLabel = "URL", description = "A saved Proxmox VE connection, by its URL.")
        String pve;

        @Option(names = "--libvirt", paramLabel = "URI", description = "A libvirt connection (qemu:///system, qemu+ssh://…).")
        String libvirt;

        @Option(names = "--connection", paramLabel = "NAME", description = "A saved connection, by name (\"Demo lab\").")
        String connection;
    }

    @ArgGroup(exclusive = true)
    Which which = new Which();

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
        } else if (w.pve != null) {
            c = saved(ctx, x -> x.kind() == ConnectionInfo.Kind.PROXMOX && x.address().equals(w.pve),
                    "no saved Proxmox VE connection at " + w.pve + ": add it in the window first (its API token is kept"
                            + " in the secret store), or use --connection NAME");
        } else if (w.libvirt != null) {
            c = Optional.of(new ConnectionInfo(0, w.libvirt, ConnectionInfo.Kind.LIBVIRT, w.libvirt, "", Optional.empty()));
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
        try {
            return ctx.sessions().of(c).inventory().vms().stream().filter(v -> v.ref().id().equals(vm)
                    || v.name().equals(vm)).findFirst().map(v -> v.ref().node())
                    .orElseThrow(() -> new IllegalArgumentException("no VM '" + vm + "' on " + c.name()));
        } catch (BackendException e) {
            throw new IllegalArgumentException("cannot find the node of VM " + vm + ": " + e.getMessage());
        }
    }
}
