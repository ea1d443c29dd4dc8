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
public final class LibvirtService {

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

    public Inventory inventory(ConnectionInfo c) throws LibvirtBackendException {
        try (LibvirtConnection lc = LibvirtConnection.open(c.address())) {
            PciInventory pci = lc.pciInventory();
            return new Inventory(lc.versions(), lc.hostname(), lc.iommuSupport(), lc.domains(),
                    HostFacts.fromListing("libvirt:" + c.address(), pci)
                            .withSource("libvirt:" + c.address(), List.of("read through libvirt: host files are not read")));
        }
    }
}
