package io.gpuforge.cli;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.ConnectionSession;
import io.gpuforge.app.VmProvisioning;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.VmInfo;
import io.gpuforge.domain.VmRef;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** Where {@code gpuforge vm …} works: {@code --pve URL | --libvirt URI | --connection NAME}, and {@code --node}. */
final class VmTargetOptions {

    static final class Which {
        @Option(names = "--pve", paramLabel = "URL", description = "A saved Proxmox VE connection, by its URL.")
        String pve;

        @Option(names = "--libvirt", paramLabel = "URI", description = "A libvirt host (qemu:///system, qemu+ssh://…).")
        String libvirt;

        @Option(names = "--connection", paramLabel = "NAME", description = "A saved connection, by name (\"Demo lab\").")
        String connection;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Which which = new Which();

    @Option(names = "--node", paramLabel = "NODE", description = "The Proxmox VE node (a libvirt host is its own node;"
            + " a cluster of one node needs none).")
    String node;

    ConnectionInfo connection(AppContext ctx) {
        if (which.libvirt != null) {
            return new ConnectionInfo(0, which.libvirt, ConnectionInfo.Kind.LIBVIRT, which.libvirt, "", Optional.empty());
        }
        List<ConnectionInfo> all;
        try {
            all = ctx.connections().all();
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot read the saved connections: " + e.getMessage());
        }
        if (which.connection != null) {
            return all.stream().filter(c -> c.name().equals(which.connection)).findFirst().orElseThrow(() ->
                    new IllegalArgumentException("no saved connection named '" + which.connection + "'"));
        }
        return all.stream().filter(c -> c.kind() == ConnectionInfo.Kind.PROXMOX && c.address().equals(which.pve))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no saved Proxmox VE connection at "
                        + which.pve + ": add it in the window first (its API token is kept in the secret store), or use"
                        + " --connection NAME"));
    }

    /** The node: --node, else the connection's only node (a libvirt host, a one-node cluster). */
    VmProvisioning.Target target(AppContext ctx) throws BackendException {
        ConnectionInfo c = connection(ctx);
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
