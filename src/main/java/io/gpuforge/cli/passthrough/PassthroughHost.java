package io.gpuforge.cli.passthrough;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.host.HostService;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HostSource;
import io.gpuforge.cli.common.HypervisorTarget;
import io.gpuforge.cli.common.NodeTarget;
import io.gpuforge.domain.BackendException;
import java.io.IOException;
import java.util.Optional;
import picocli.CommandLine.Mixin;

/**
 * Where {@code apply}, {@code verify} and {@code rollback} work: a host named as every host command names one
 * ({@code --local | --ssh | --host | --sysroot}), or a node of a saved connection ({@code --connection NAME --node N},
 * as {@code passthrough} names it): the node's linked host, the Demo lab's simulated host for its nodes. So a
 * passthrough applied through a node is rolled back through the same words.
 */
final class PassthroughHost {

    @Mixin
    HypervisorTarget hypervisor = new HypervisorTarget();

    @Mixin
    HostSource source = new HostSource();

    /** The host, and the services that work on it (the application's while it is open). */
    record Opened(HostTarget target, PassthroughService passthrough, HostService hosts, Optional<AppContext> context)
            implements AutoCloseable {
        @Override
        public void close() {
            context.ifPresent(AppContext::close);
        }
    }

    /** The host to change: a node's, or one named explicitly ({@link HostSource#changeTarget}). */
    Opened change(CliServices services) throws IOException, BackendException {
        if (!hypervisor.present()) {
            return new Opened(source.changeTarget(services), source.passthrough(services), source.hosts(services),
                    Optional.empty());
        }
        return node(services);
    }

    /** The host to read: a node's, or one named ({@link HostSource#target}, this computer by default). */
    Opened read(CliServices services) throws IOException, BackendException {
        if (!hypervisor.present()) {
            return new Opened(source.target(services), source.passthrough(services), source.hosts(services),
                    Optional.empty());
        }
        return node(services);
    }

    private Opened node(CliServices services) throws IOException, BackendException {
        if (source.namesAHost() || source.which.listing != null) {
            throw new IllegalArgumentException("name either the node (--connection NAME --node N: its linked host) or"
                    + " a host (--local, --ssh, --host, --sysroot), not both");
        }
        NodeTarget n = NodeTarget.open(services, hypervisor, source, s -> {
            if (!s.connection().saved()) {
                throw new IllegalArgumentException(hypervisor.describe() + " is not a saved connection, so none of its"
                        + " nodes is linked to a host: save it (gpuforge connection add) and link the node (gpuforge"
                        + " link), or name the host with --ssh");
            }
        });
        return new Opened(n.requireHost(), n.ctx().passthrough(), n.ctx().hosts(), Optional.of(n.ctx()));
    }
}
