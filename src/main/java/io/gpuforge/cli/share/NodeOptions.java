package io.gpuforge.cli.share;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HostSource;
import io.gpuforge.cli.common.HypervisorTarget;
import io.gpuforge.cli.common.NodeTarget;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.NodeInfo;
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

    /** The node and its host ({@link NodeTarget}) on a cluster that has containers. */
    NodeTarget open(CliServices services) throws IOException, BackendException {
        requireCluster();
        return NodeTarget.open(services, hypervisor, host, NodeOptions::requireContainers);
    }

    /** The node {@code --node} names, or every node of the cluster when it names none. */
    Cluster openCluster(CliServices services) throws IOException, BackendException {
        AppContext ctx = services.openContext();
        try {
            requireCluster();
            ConnectionSession s = ctx.sessions().of(hypervisor.connection(services, ctx));
            requireContainers(s);
            if (hypervisor.node != null) {
                HypervisorTarget.requireNode(s, hypervisor.node);
            }
            List<String> nodes = hypervisor.node != null ? List.of(hypervisor.node)
                    : s.inventory().nodes().stream().map(NodeInfo::name).toList();
            if (host.namesAHost() && nodes.size() > 1) {
                throw new IllegalArgumentException("a host named with --ssh, --host, --local or --sysroot is one node's:"
                        + " name that node with --node (" + s.connection().name() + " has " + String.join(", ", nodes)
                        + ")");
            }
            List<Optional<HostTarget>> hosts = new java.util.ArrayList<>();
            for (String n : nodes) {
                hosts.add(NodeTarget.host(services, host, s.connection(), n));
            }
            return new Cluster(ctx, s, nodes, hosts);
        } catch (IOException | BackendException | RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    private void requireCluster() {
        if (!hypervisor.present()) {
            throw new IllegalArgumentException("name the node's cluster with --connection NAME or --pve URL (and the"
                    + " node with --node)");
        }
    }

    private static void requireContainers(ConnectionSession s) {
        if (!s.can(Capability.CONTAINERS)) {
            throw new IllegalArgumentException(s.connection().name() + " has no containers (LXC containers are"
                    + " Proxmox VE's)");
        }
    }
}
