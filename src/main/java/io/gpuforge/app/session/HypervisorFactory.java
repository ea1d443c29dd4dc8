package io.gpuforge.app.session;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.hypervisor.Hypervisor;
import java.util.Set;

/** Opens the backend of a saved connection: the one place that knows which backend serves which kind. */
public interface HypervisorFactory extends AutoCloseable {

    /** Connects (blocking); the secret of the connection comes from the secret store. */
    Hypervisor open(ConnectionInfo connection) throws BackendException;

    /** Connects to a hypervisor named on the spot (the CLI's --pve / --libvirt), with the credentials given. */
    Hypervisor open(AdhocHypervisor adhoc) throws BackendException;

    /** What connections of this kind can do, without connecting; empty for kinds without a hypervisor (SSH). */
    Set<Capability> capabilities(ConnectionInfo.Kind kind);

    /** Stops what the factory started (the Demo lab's simulated cluster). */
    @Override
    void close();
}
