package io.gpuforge.app;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.hypervisor.Hypervisor;
import java.util.EnumSet;
import java.util.Set;

/** TEMPORARY until the libvirt backend is merged. */
final class LibvirtBackends {

    Set<Capability> capabilities() {
        return EnumSet.of(Capability.INVENTORY);
    }

    Hypervisor open(String uri) throws BackendException {
        throw new BackendException(BackendException.Kind.UNSUPPORTED, "libvirt backend not merged yet");
    }
}
