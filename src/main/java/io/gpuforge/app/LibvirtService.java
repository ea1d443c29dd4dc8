package io.gpuforge.app;

import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.PciInventory;
import io.gpuforge.domain.VmInfo;
import io.gpuforge.hypervisor.libvirt.LibvirtBackendException;
import io.gpuforge.hypervisor.libvirt.LibvirtConnection;
import java.util.List;
import java.util.Optional;

/** libvirt hosts for the UI and the CLI. Blocking: call from a background task. */
public final class LibvirtService implements AutoCloseable {

    private final io.gpuforge.hypervisor.libvirt.LibvirtEventLoop loop = new io.gpuforge.hypervisor.libvirt.LibvirtEventLoop();

    /** What a libvirt connection shows: versions, domains, and PCI devices with IOMMU groups as host facts. */
    public record Inventory(String versions, String hostname, Optional<Boolean> iommuSupport, List<VmInfo> domains,
                            HostFacts facts) {
    }

    /** "libvirt 9.0.0, QEMU 7.2.0" when the connection works. */
    public String test(String uri) throws LibvirtBackendException {
        try (LibvirtConnection c = LibvirtConnection.open(uri)) {
            return c.versions();
        }
    }

    /**
     * Domain lifecycle events of a connection as they happen ("web1 STARTED"), on libvirt's event thread;
     * close the returned watch when done.
     */
    public AutoCloseable watch(ConnectionInfo c, java.util.function.Consumer<String> onEvent) throws LibvirtBackendException {
        return io.gpuforge.hypervisor.libvirt.LibvirtWatch.open(c.address(), loop, onEvent);
    }

    @Override
    public void close() {
        loop.close();
    }

    public Inventory inventory(ConnectionInfo c) throws LibvirtBackendException {
        try (LibvirtConnection lc = LibvirtConnection.open(c.address())) {
            PciInventory pci = lc.pciInventory();
            return new Inventory(lc.versions(), lc.hostname(), lc.iommuSupport(), lc.domains(),
                    HostFacts.fromListing("libvirt:" + c.address(), pci)
                            .withSource("libvirt:" + c.address(), List.of("read through libvirt: host files are not read")));
        }
    }
}
