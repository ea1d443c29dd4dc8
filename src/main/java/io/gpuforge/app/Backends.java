package io.gpuforge.app;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.hypervisor.Hypervisor;
import java.util.EnumSet;
import java.util.Set;

/** TEMPORARY while the backends are being merged: replaced by the real factory before this work lands. */
final class Backends implements HypervisorFactory {

    @Override
    public Hypervisor open(ConnectionInfo connection) throws BackendException {
        throw new BackendException(BackendException.Kind.UNSUPPORTED, "backend not merged yet");
    }

    @Override
    public Set<Capability> capabilities(ConnectionInfo.Kind kind) {
        return kind == ConnectionInfo.Kind.SSH ? Set.of() : EnumSet.of(Capability.INVENTORY);
    }

    @Override
    public void close() {
    }
}
