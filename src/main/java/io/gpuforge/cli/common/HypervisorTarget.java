package io.gpuforge.cli.common;

import io.gpuforge.app.session.AdhocHypervisor;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.vmcreate.VmProvisioning;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Where a command reaches a hypervisor, spelled the same in every command that does: a saved connection
 * ({@code --connection NAME}, the Demo lab included), or one named on the spot: {@code --pve URL} with
 * {@code --fingerprint SHA256} and an API token ({@code GPUFORGE_PVE_TOKEN}, or {@code --token-stdin}) or a password
 * login ({@code --pve-user USER@REALM --pve-password-stdin}), or {@code --libvirt URI}; a {@code --pve}/{@code --libvirt}
 * address that is a saved connection, given without credentials, is that connection. {@code --node} picks the node.
 * Exactly one of the three is needed; anything else is a usage error (IllegalArgumentException) naming what is wrong.
 */
public final class HypervisorTarget {

    @Option(names = "--connection", paramLabel = "NAME", description = "A saved connection, by name (\"Demo lab\").")
    public String connection;

    @Option(names = "--pve", paramLabel = "URL", description = "A Proxmox VE cluster (https://host:8006): a saved"
            + " connection at that URL, or on the spot with an API token (" + PveLogin.TOKEN_VARIABLE
            + " or --token-stdin) or --pve-user.")
    String pve;

    @Option(names = "--libvirt", paramLabel = "URI", description = "A libvirt host (qemu:///system, qemu+ssh://…).")
    public String libvirt;

    /** With {@code --pve}: the certificate's pin and the credentials. */
    @Mixin
    PveLogin login = new PveLogin();

    @Option(names = "--node", paramLabel = "NODE", description = "The Proxmox VE node (a libvirt host is its own node;"
            + " a cluster of one node needs none).")
    public String node;

    /** Whether a hypervisor is named at all. */
    public boolean present() {
        return connection != null || pve != null || libvirt != null;
    }

    /** A short name of the hypervisor for outputs ({@code pve:URL}, {@code libvirt:URI}, the connection's name). */
    public String describe() {
        return pve != null ? "pve:" + pve : libvirt != null ? "libvirt:" + libvirt : String.valueOf(connection);
    }

    /** The connection the options name: saved, or made for this run only ({@code Sessions#onTheSpot}). */
    public ConnectionInfo connection(CliServices services, AppContext ctx) throws IOException {
        int named = (connection != null ? 1 : 0) + (pve != null ? 1 : 0) + (libvirt != null ? 1 : 0);
        if (named != 1) {
            throw new IllegalArgumentException("name the hypervisor with exactly one of --connection NAME, --pve URL"
                    + " or --libvirt URI");
        }
        if (login.given() && pve == null) {
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
        PveLogin.checkUrl(pve);
        if (!login.credentials(services)) {
            return saved(ctx, c -> c.kind() == ConnectionInfo.Kind.PROXMOX && c.address().equals(pve))
                    .orElseThrow(() -> new IllegalArgumentException("no saved Proxmox VE connection at " + pve
                            + ": give an API token (" + PveLogin.TOKEN_VARIABLE + "=USER@REALM!ID=SECRET, or"
                            + " --token-stdin),"
                            + " or --pve-user USER@REALM --pve-password-stdin"));
        }
        return ctx.sessions().onTheSpot(login.login(services, pve));
    }

    /** The session of the hypervisor the options name. */
    public ConnectionSession session(CliServices services, AppContext ctx) throws IOException {
        return ctx.sessions().of(connection(services, ctx));
    }

    /** The node: --node, else the connection's only node (a libvirt host, a one-node cluster). */
    public VmProvisioning.Target target(CliServices services, AppContext ctx) throws IOException, BackendException {
        ConnectionInfo c = connection(services, ctx);
        return new VmProvisioning.Target(c, node(ctx.sessions().of(c)));
    }

    /** The node of {@code s}: --node if it has it, else its only node; a usage error naming its nodes otherwise. */
    public String node(ConnectionSession s) throws BackendException {
        if (node != null) {
            return requireNode(s, node);
        }
        List<NodeInfo> nodes = s.inventory().nodes();
        if (nodes.size() != 1) {
            throw new IllegalArgumentException("name the node with --node (" + s.connection().name() + " has "
                    + String.join(", ", nodes.stream().map(NodeInfo::name).toList()) + ")");
        }
        return nodes.get(0).name();
    }

    private static Optional<ConnectionInfo> saved(AppContext ctx, Predicate<ConnectionInfo> p) {
        try {
            return ctx.connections().all().stream().filter(p).findFirst();
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot read the saved connections: " + e.getMessage());
        }
    }

    /** {@code node} if the connection has it; else a usage error naming the nodes it has. */
    public static String requireNode(ConnectionSession s, String node) throws BackendException {
        List<String> nodes = s.inventory().nodes().stream().map(NodeInfo::name).toList();
        if (!nodes.contains(node)) {
            throw new IllegalArgumentException("no node '" + node + "' on " + s.connection().name() + " (its nodes: "
                    + String.join(", ", nodes) + ")");
        }
        return node;
    }

    /**
     * The VM {@code vm} (its id or name) on the connection the options name, on {@code --node} when given: the
     * prologue of every command on one VM.
     */
    public VmTarget vm(CliServices services, AppContext ctx, String vm) throws IOException, BackendException {
        ConnectionInfo c = connection(services, ctx);
        ConnectionSession s = ctx.sessions().of(c);
        return new VmTarget(c, s, find(s, vm, node));
    }

    /** A VM by id or name, on --node when given. */
    public static VmRef find(ConnectionSession s, String vm, String node) throws BackendException {
        if (node != null) {
            requireNode(s, node);
        }
        List<VmInfo> matches = s.inventory().vms().stream().filter(v -> (v.ref().id().equals(vm) || v.name().equals(vm))
                && (node == null || v.ref().node().equals(node))).toList();
        if (matches.isEmpty()) {
            throw new IllegalArgumentException("no VM '" + vm + "' on " + s.connection().name()
                    + (node == null ? "" : " node " + node) + " (gpuforge vm list names them)");
        }
        if (matches.size() > 1) {
            throw new IllegalArgumentException("more than one VM is called '" + vm + "': give its id");
        }
        return matches.get(0).ref();
    }
}
