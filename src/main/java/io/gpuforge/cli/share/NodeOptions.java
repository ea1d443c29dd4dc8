package io.gpuforge.cli.share;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HostSource;
import io.gpuforge.cli.common.HypervisorTarget;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.connections.ConnectionInfo;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Mixin;

/**
 * The node whose containers and GPUs a command works on: the hypervisor ({@code --connection NAME | --pve URL},
 * {@code --node}) and the node's host, where its GPU's facts and host plan are ({@code --ssh/--host/--local/--sysroot},
 * else a saved connection's link for the node, the Demo lab's simulated host for its nodes).
 */
final class NodeOptions {

    @Mixin
    HypervisorTarget hypervisor = new HypervisorTarget();

    @Mixin
    HostSource host = new HostSource();

    /** An open session on the node's cluster, the node, and how to reach its host. */
    record Opened(AppContext ctx, ConnectionSession session, String node, Optional<HostTarget> host)
            implements AutoCloseable {
        @Override
        public void close() {
            ctx.close();
        }
    }

    /**
     * The nodes a listing covers: the one {@code --node} names, else every node of the cluster (each with its host, a
     * saved connection's link); a host named on the spot needs {@code --node} on a cluster of several nodes.
     */
    record Cluster(AppContext ctx, ConnectionSession session, List<String> nodes, List<Optional<HostTarget>> hosts)
            implements AutoCloseable {
        @Override
        public void close() {
            ctx.close();
        }
    }

    Opened open(CliServices services) throws IOException, BackendException {
        AppContext ctx = services.openContext();
        try {
            ConnectionSession s = session(services, ctx);
            ConnectionInfo c = s.connection();
            String node = hypervisor.node;
            if (node == null) {
                List<NodeInfo> nodes = s.inventory().nodes();
                if (nodes.size() != 1) {
                    throw new IllegalArgumentException("name the node with --node (" + c.name() + " has "
                            + String.join(", ", nodes.stream().map(NodeInfo::name).toList()) + ")");
                }
                node = nodes.get(0).name();
            }
            return new Opened(ctx, s, node, host(services, c, node));
        } catch (IOException | BackendException | RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    /** The node {@code --node} names, or every node of the cluster when it names none. */
    Cluster openCluster(CliServices services) throws IOException, BackendException {
        AppContext ctx = services.openContext();
        try {
            ConnectionSession s = session(services, ctx);
            List<String> nodes = hypervisor.node != null ? List.of(hypervisor.node)
                    : s.inventory().nodes().stream().map(NodeInfo::name).toList();
            HostSource.Which w = host.which;
            boolean onTheSpot = w.local || w.ssh != null || w.host != null || w.sysroot != null;
            if (onTheSpot && nodes.size() > 1) {
                throw new IllegalArgumentException("a host named with --ssh, --host, --local or --sysroot is one node's:"
                        + " name that node with --node (" + s.connection().name() + " has " + String.join(", ", nodes)
                        + ")");
            }
            List<Optional<HostTarget>> hosts = new java.util.ArrayList<>();
            for (String n : nodes) {
                hosts.add(host(services, s.connection(), n));
            }
            return new Cluster(ctx, s, nodes, hosts);
        } catch (IOException | BackendException | RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    /** A session on the cluster named, which has containers; a {@code --node} it has not is a usage error. */
    private ConnectionSession session(CliServices services, AppContext ctx) throws IOException, BackendException {
        if (!hypervisor.present()) {
            throw new IllegalArgumentException("name the node's cluster with --connection NAME or --pve URL (and the"
                    + " node with --node)");
        }
        ConnectionInfo c = hypervisor.connection(services, ctx);
        ConnectionSession s = ctx.sessions().of(c);
        if (!s.can(Capability.CONTAINERS)) {
            throw new IllegalArgumentException(c.name() + " has no containers (LXC containers are Proxmox VE's)");
        }
        if (hypervisor.node != null) {
            HypervisorTarget.requireNode(s, hypervisor.node);
        }
        return s;
    }

    private Optional<HostTarget> host(CliServices services, ConnectionInfo c, String node) throws IOException {
        HostSource.Which w = host.which;
        if (w.local || w.ssh != null || w.host != null || w.sysroot != null) {
            return Optional.of(host.target(services));
        }
        return c.saved() ? Optional.of(new HostTarget.Linked(c, node)) : Optional.empty();
    }

    /** The node's host, or the reason there is none. */
    static HostTarget requireHost(Opened o) {
        return o.host().orElseThrow(() -> new IllegalArgumentException("name the node's host, where its GPU is read"
                + " and set up: --ssh USER@HOST, --host NAME, --local or --sysroot DIR (a saved --connection uses the"
                + " node's linked host)"));
    }
}
