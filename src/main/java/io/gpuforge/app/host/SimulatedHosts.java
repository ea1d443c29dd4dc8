package io.gpuforge.app.host;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.host.HostException;
import java.time.Duration;
import java.util.Optional;

/**
 * Hosts that stand for the nodes of a connection without a machine behind them: the Demo lab's simulated hosts.
 * {@link HostAccess} asks here first for a node's host, so the host-level work of a Demo lab node (probe, plan,
 * apply, reboot, verify) runs on its simulated host. Blocking.
 */
public interface SimulatedHosts {

    /** None: every node's host is a real one. */
    SimulatedHosts NONE = new SimulatedHosts() {
        @Override
        public Optional<HostAccess.Opened> open(ConnectionInfo c, String node) {
            return Optional.empty();
        }

        @Override
        public Optional<Duration> rebootWait(ConnectionInfo c, String node) {
            return Optional.empty();
        }
    };

    /** A shell on the simulated host of the node; empty when the connection's nodes have real hosts. */
    Optional<HostAccess.Opened> open(ConnectionInfo c, String node) throws HostException;

    /** How long to wait for the node's simulated host to come back from a reboot; empty for a real host. */
    Optional<Duration> rebootWait(ConnectionInfo c, String node);
}
