package io.gpuforge.passthrough;

import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciDevice;
import java.util.List;

/** The hypervisor-side changes that hand the card to a VM, shown in the plan and applied by the backend. */
interface VmChangeBuilder {

    /**
     * @param gpu the function the user picked
     * @param functions every function planned for passthrough, sorted
     * @param vmId the VM, or a placeholder when none was chosen yet
     */
    List<PassthroughPlan.VmChange> changes(HostFacts f, PciDevice gpu, List<PciDevice> functions, String vmId);

    /** Proxmox VE on a PVE node, libvirt on any other host. */
    static VmChangeBuilder forHost(HostFacts f) {
        return f.proxmox() ? new ProxmoxVmChanges() : new LibvirtVmChanges();
    }
}
