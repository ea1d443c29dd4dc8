package io.gpuforge.cli;

import io.gpuforge.domain.IommuState;
import io.gpuforge.domain.PciInventory;
import io.gpuforge.hypervisor.libvirt.LibvirtBackendException;
import io.gpuforge.hypervisor.libvirt.LibvirtConnection;
import java.util.Optional;

/** Host PCI devices and IOMMU groups as a libvirt connection reports them. */
final class LibvirtSource {

    private LibvirtSource() {
    }

    static LoadedHost load(String uri) throws LibvirtBackendException {
        try (LibvirtConnection c = LibvirtConnection.open(uri)) {
            PciInventory inv = c.pciInventory();
            Optional<Boolean> support = c.iommuSupport();
            IommuState state = !inv.groups().isEmpty() ? IommuState.ENABLED
                    : support.map(s -> s ? IommuState.ENABLED : IommuState.DISABLED).orElse(IommuState.UNKNOWN);
            return new LoadedHost("libvirt:" + uri, state, inv, Optional.empty());
        }
    }
}
