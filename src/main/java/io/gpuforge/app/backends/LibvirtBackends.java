package io.gpuforge.app.backends;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.hypervisor.Hypervisor;
import io.gpuforge.hypervisor.libvirt.LibvirtHypervisor;
import java.util.Set;

/** libvirt connections ({@code qemu:///system}, {@code qemu+ssh://…}) behind the seam. */
public final class LibvirtBackends {

    /** Before connecting: what a QEMU host can do (a connected session asks its backend, which knows the driver). */
    Set<Capability> capabilities() {
        return LibvirtHypervisor.capabilitiesOf("QEMU");
    }

    Hypervisor open(String uri) throws BackendException {
        return LibvirtHypervisor.open(uri);
    }
}
