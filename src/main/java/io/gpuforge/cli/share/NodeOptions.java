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

    Opened open(CliServices services) throws IOException, BackendException {
        if (!hypervisor.present()) {
            throw new IllegalArgumentException("name the node's cluster with --connection NAME or --pve URL, and the"
                    + " node with --node");
        }
        AppContext ctx = services.openContext();
        try {
            ConnectionInfo c = hypervisor.connection(services, ctx);
            ConnectionSession s = ctx.sessions().of(c);
            if (!s.can(Capability.CONTAINERS)) {
                throw new IllegalArgumentException(c.name() + " has no containers (LXC containers are Proxmox VE's)");
            }
            String node = hypervisor.node;
            if (node == null) {
                List<NodeInfo> nodes = s.inventory().nodes();
                if (nodes.size() != 1) {
                    throw new IllegalArgumentException("name the node with --node (" + c.name() + " has "
                            + nodes.stream().map(NodeInfo::name).toList() + ")");
                }
                node = nodes.get(0).name();
            }
            return new Opened(ctx, s, node, host(services, c, node));
        } catch (IOException | BackendException | RuntimeException e) {
            ctx.close();
            throw e;
        }
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
