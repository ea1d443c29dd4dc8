package io.gpuforge.cli;

import io.gpuforge.app.AdhocHypervisor;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.ConnectionSession;
import io.gpuforge.app.VmProvisioning;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.VmInfo;
import io.gpuforge.domain.VmRef;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import picocli.CommandLine.Option;

/**
 * Where a command reaches a hypervisor, spelled the same in every command that does: a saved connection
 * ({@code --connection NAME}, the Demo lab included), or one named on the spot: {@code --pve URL} with
 * {@code --fingerprint SHA256} and an API token ({@code GPUFORGE_PVE_TOKEN}, or {@code --token-stdin}) or a password
 * login ({@code --pve-user USER@REALM --pve-password-stdin}), or {@code --libvirt URI}; a {@code --pve}/{@code --libvirt}
 * address that is a saved connection, given without credentials, is that connection. {@code --node} picks the node.
 * Exactly one of the three is needed; anything else is a usage error (IllegalArgumentException) naming what is wrong.
 */
final class HypervisorTarget {

    static final String TOKEN_VARIABLE = "GPUFORGE_PVE_TOKEN";

    @Option(names = "--connection", paramLabel = "NAME", description = "A saved connection, by name (\"Demo lab\").")
    String connection;

    @Option(names = "--pve", paramLabel = "URL", description = "A Proxmox VE cluster (https://host:8006): a saved"
            + " connection at that URL, or on the spot with an API token (" + TOKEN_VARIABLE + " or --token-stdin) or"
            + " --pve-user.")
    String pve;

    @Option(names = "--libvirt", paramLabel = "URI", description = "A libvirt host (qemu:///system, qemu+ssh://…).")
    String libvirt;

    @Option(names = "--fingerprint", paramLabel = "SHA256", description = "With --pve: pin the cluster's certificate"
            + " (AA:BB:… as Proxmox VE shows it).")
    String fingerprint;

    @Option(names = "--token-stdin", description = "With --pve: read the API token (USER@REALM!ID=SECRET) from the first"
            + " line of stdin.")
    boolean tokenStdin;

    @Option(names = "--pve-user", paramLabel = "USER@REALM", description = "With --pve: log in as this user with a"
            + " password (--pve-password-stdin) instead of an API token.")
    String user;

    @Option(names = "--pve-password-stdin", description = "With --pve-user: read the password from the first line of stdin.")
    boolean passwordStdin;

    @Option(names = "--node", paramLabel = "NODE", description = "The Proxmox VE node (a libvirt host is its own node;"
            + " a cluster of one node needs none).")
    String node;

    /** Whether a hypervisor is named at all. */
    boolean present() {
        return connection != null || pve != null || libvirt != null;
    }

    /** A short name of the hypervisor for outputs ({@code pve:URL}, {@code libvirt:URI}, the connection's name). */
    String describe() {
        return pve != null ? "pve:" + pve : libvirt != null ? "libvirt:" + libvirt : String.valueOf(connection);
    }

    /** The connection the options name: saved, or made for this run only ({@code Sessions#onTheSpot}). */
    ConnectionInfo connection(CliServices services, AppContext ctx) throws IOException {
        int named = (connection != null ? 1 : 0) + (pve != null ? 1 : 0) + (libvirt != null ? 1 : 0);
        if (named != 1) {
            throw new IllegalArgumentException("name the hypervisor with exactly one of --connection NAME, --pve URL"
                    + " or --libvirt URI");
        }
        if ((fingerprint != null || tokenStdin || user != null || passwordStdin) && pve == null) {
            throw new IllegalArgumentException("--fingerprint, --token-stdin, --pve-user and --pve-password-stdin go with"
                    + " --pve URL");
        }
        if (connection != null) {
            return saved(ctx, c -> c.name().equals(connection)).orElseThrow(() -> new IllegalArgumentException(
                    "no saved connection named '" + connection + "' (gpuforge connection list)"));
        }
        if (libvirt != null) {
            return saved(ctx, c -> c.kind() == ConnectionInfo.Kind.LIBVIRT && c.address().equals(libvirt))
                    .orElseGet(() -> ctx.sessions().onTheSpot(AdhocHypervisor.libvirt(libvirt)));
        }
        if (!pve.matches("(?i)https://[^/\\s]+(/.*)?")) {
            throw new IllegalArgumentException("--pve needs the cluster's https URL, such as https://pve1:8006, not '"
                    + pve + "'");
        }
        boolean credentials = user != null || tokenStdin || System.getenv(TOKEN_VARIABLE) != null;
        if (!credentials) {
            return saved(ctx, c -> c.kind() == ConnectionInfo.Kind.PROXMOX && c.address().equals(pve))
                    .orElseThrow(() -> new IllegalArgumentException("no saved Proxmox VE connection at " + pve
                            + ": give an API token (" + TOKEN_VARIABLE + "=USER@REALM!ID=SECRET, or --token-stdin),"
                            + " or --pve-user USER@REALM --pve-password-stdin"));
        }
        return ctx.sessions().onTheSpot(onTheSpot(services));
    }

    /** The credentials given for {@code --pve}: a password login, else an API token from stdin or the environment. */
    private AdhocHypervisor onTheSpot(CliServices services) throws IOException {
        Optional<String> pin = Optional.ofNullable(fingerprint);
        if (user != null) {
            if (!passwordStdin) {
                throw new IllegalArgumentException("--pve-user needs --pve-password-stdin (the password on stdin)");
            }
            String line = services.readLine();
            return new AdhocHypervisor(ConnectionInfo.Kind.PROXMOX, pve, user, Optional.of(line == null ? new char[0]
                    : line.toCharArray()), true, pin);
        }
        String token = tokenStdin ? services.readLine() : System.getenv(TOKEN_VARIABLE);
        int eq = token == null ? -1 : token.indexOf('=');
        if (eq < 0 || !token.substring(0, eq).contains("!")) {
            throw new IllegalArgumentException((tokenStdin ? "--token-stdin" : TOKEN_VARIABLE) + " needs an API token"
                    + " as USER@REALM!ID=SECRET");
        }
        return new AdhocHypervisor(ConnectionInfo.Kind.PROXMOX, pve, token.substring(0, eq).strip(),
                Optional.of(token.substring(eq + 1).strip().toCharArray()), false, pin);
    }

    /** The session of the hypervisor the options name. */
    ConnectionSession session(CliServices services, AppContext ctx) throws IOException {
        return ctx.sessions().of(connection(services, ctx));
    }

    /** The node: --node, else the connection's only node (a libvirt host, a one-node cluster). */
    VmProvisioning.Target target(CliServices services, AppContext ctx) throws IOException, BackendException {
        ConnectionInfo c = connection(services, ctx);
        if (node != null) {
            return new VmProvisioning.Target(c, node);
        }
        List<NodeInfo> nodes = ctx.sessions().of(c).inventory().nodes();
        if (nodes.size() != 1) {
            throw new IllegalArgumentException(c.name() + " has " + nodes.size() + " nodes: say which with --node ("
                    + String.join(", ", nodes.stream().map(NodeInfo::name).toList()) + ")");
        }
        return new VmProvisioning.Target(c, nodes.get(0).name());
    }

    private static Optional<ConnectionInfo> saved(AppContext ctx, Predicate<ConnectionInfo> p) {
        try {
            return ctx.connections().all().stream().filter(p).findFirst();
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot read the saved connections: " + e.getMessage());
        }
    }

    /** A VM by id or name, on --node when given. */
    static VmRef find(ConnectionSession s, String vm, String node) throws BackendException {
        List<VmInfo> matches = s.inventory().vms().stream().filter(v -> (v.ref().id().equals(vm) || v.name().equals(vm))
                && (node == null || v.ref().node().equals(node))).toList();
        if (matches.isEmpty()) {
            throw new IllegalArgumentException("no VM '" + vm + "' on " + s.connection().name()
                    + (node == null ? "" : " node " + node));
        }
        if (matches.size() > 1) {
            throw new IllegalArgumentException("more than one VM is called '" + vm + "': give its id");
        }
        return matches.get(0).ref();
    }
}
