package io.gpuforge.cli.common;

import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.VmRef;
import java.util.Objects;

/**
 * The VM a command names, found where its options say ({@link HypervisorTarget#vm}): the connection, its session and
 * the VM. Every command on one VM starts from it, so each finds the VM, and refuses a wrong one, the same way.
 */
public record VmTarget(ConnectionInfo connection, ConnectionSession session, VmRef ref) {

    public VmTarget {
        Objects.requireNonNull(connection);
        Objects.requireNonNull(session);
        Objects.requireNonNull(ref);
    }
}
