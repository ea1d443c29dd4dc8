package io.gpuforge.cli.common;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * The node a command names and its host, found as every command on one node finds them: the hypervisor
 * ({@link HypervisorTarget}: {@code --connection}, {@code --pve}, {@code --libvirt}), the node ({@code --node}, else
 * the only one), and the host where its GPUs are read and set up: one named on the spot ({@link HostSource#named}),
 * else a saved connection's link for the node (the Demo lab's simulated host for its nodes). Holds the application
 * context it opened; closing the target closes it.
 */
public record NodeTarget(AppContext ctx, ConnectionSession session, String node, Optional<HostTarget> host)
        implements AutoCloseable {

    /** What a command asks of the node's hypervisor before anything else (containers, say). */
    @FunctionalInterface
    public interface Requirement {
        void check(ConnectionSession session);

        Requirement NONE = s -> { };
    }

    public NodeTarget {
        Objects.requireNonNull(ctx);
        Objects.requireNonNull(session);
        Objects.requireNonNull(node);
        Objects.requireNonNull(host);
    }

    /** Opens the application context and finds the node; a wrong name is a usage error naming what there is. */
    public static NodeTarget open(CliServices services, HypervisorTarget hypervisor, HostSource hostSource,
                                  Requirement requirement) throws IOException, BackendException {
        AppContext ctx = services.openContext();
        try {
            ConnectionInfo c = hypervisor.connection(services, ctx);
            ConnectionSession s = ctx.sessions().of(c);
            requirement.check(s);
            String node = hypervisor.node(s);
            return new NodeTarget(ctx, s, node, host(services, hostSource, c, node));
        } catch (IOException | BackendException | RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    /** The host of {@code node}: one named on the spot, else a saved connection's link; empty when neither. */
    public static Optional<HostTarget> host(CliServices services, HostSource hostSource, ConnectionInfo c, String node)
            throws IOException {
        Optional<HostTarget> named = hostSource.named(services);
        return named.isPresent() ? named : c.saved() ? Optional.of(new HostTarget.Linked(c, node)) : Optional.empty();
    }

    public ConnectionInfo connection() {
        return session.connection();
    }

    /** The node's host, or a usage error saying how to name one. */
    public HostTarget requireHost() {
        return host.orElseThrow(() -> new IllegalArgumentException("name the node's host, where its GPU is read"
                + " and set up: --ssh USER@HOST, --host NAME, --local or --sysroot DIR (a saved --connection uses the"
                + " node's linked host)"));
    }

    @Override
    public void close() {
        ctx.close();
    }
}
