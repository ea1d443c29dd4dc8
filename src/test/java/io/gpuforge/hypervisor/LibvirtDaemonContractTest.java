package io.gpuforge.hypervisor;

import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.hypervisor.libvirt.LibvirtBackendException;
import io.gpuforge.hypervisor.libvirt.LibvirtConnection;
import io.gpuforge.hypervisor.libvirt.LibvirtDaemon;
import io.gpuforge.hypervisor.libvirt.LibvirtHypervisor;
import java.util.List;
import java.util.Optional;

/**
 * The contract on the real libvirtd ({@code qemu:///system}: QEMU with TCG, OVMF), as .ci/run starts it. Each
 * test gets its own stopped UEFI domain under a unique name, defined beforehand and undefined afterwards
 * whatever happened. The host has no GPU to spare, so the GPU checks run on the test driver
 * ({@link LibvirtTestDriverContractTest}) and in {@code LibvirtDaemonGpuAttachTest}.
 */
class LibvirtDaemonContractTest extends HypervisorContract {

    private String name;

    @Override
    protected Fixture open() throws Exception {
        LibvirtDaemon.socketOrSkip();
        name = "gf-contract-" + Long.toHexString(System.nanoTime());
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            c.define(new VmSpec(name, 1, 256, Optional.empty(), VmSpec.USER_NETWORK, Optional.empty(), List.of(), true,
                    false));
        }
        LibvirtHypervisor h = LibvirtHypervisor.open(LibvirtDaemon.URI);
        String node = h.inventory().name();
        return new Fixture(h, node, new VmRef(node, name), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    /** The fixture's domain has firmware and no operating system: nothing answers the ACPI power button. */
    @Override
    protected boolean guestAnswersShutdown() {
        return false;
    }

    @Override
    protected void release() throws Exception {
        if (name == null) {
            return;
        }
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            if (c.domains().stream().anyMatch(v -> v.name().equals(name))) {
                try {
                    c.forceOff(name);
                } catch (LibvirtBackendException e) {
                    // not running
                }
                c.undefine(name);
            }
        }
    }
}
