package io.gpuforge.cli;

import io.gpuforge.app.AdhocHypervisor;
import io.gpuforge.app.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.NodePci;
import java.util.Optional;

/** {@code --libvirt URI} and {@code --pve URL}: hypervisors named on the spot, through the backends the window uses. */
final class HypervisorSource {

    private HypervisorSource() {
    }

    static ConnectionSession session(CliServices services, String uri) {
        return services.standalone().sessions().adhoc(AdhocHypervisor.libvirt(uri));
    }

    /** The host's PCI devices and IOMMU groups as libvirt reports them. */
    static LoadedHost load(CliServices services, String uri) throws BackendException {
        try (ConnectionSession s = session(services, uri)) {
            ClusterInventory inv = s.inventory();
            NodePci pci = s.nodePci(inv.nodes().get(0).name());
            return new LoadedHost("libvirt:" + uri, pci.iommu(), pci.inventory(), Optional.empty());
        }
    }

    /** A Proxmox node's PCI devices and IOMMU groups. */
    static LoadedHost pve(ConnectionSession s, String url, String node) throws BackendException {
        NodePci pci = s.nodePci(node);
        return new LoadedHost("pve:" + url + "/" + node, pci.iommu(), pci.inventory(), Optional.empty());
    }
}
