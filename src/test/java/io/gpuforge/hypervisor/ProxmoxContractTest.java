package io.gpuforge.hypervisor;

import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.hypervisor.proxmox.ProxmoxHypervisor;
import io.gpuforge.hypervisor.proxmox.PveContract;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The backend checklist against the Proxmox VE backend over the simulated cluster on loopback HTTPS (every
 * request checked against the endpoint contract, answered like PVE): the contract lab holds the stopped VM 102
 * on pve-4090 without a GPU, the running VM 101 whose guest agent answers, template 9000 on pve-3090, and the
 * unused RTX 4090 at 0000:02:00 (mapped as gpu-4090-b).
 */
class ProxmoxContractTest extends HypervisorContract {

    private PveSimulator sim;

    @Override
    protected Fixture open() throws Exception {
        sim = new PveSimulator(SimCluster.contractLab());
        Hypervisor h = new ProxmoxHypervisor(sim.tokenClient(PveContract.load()), sim.url(),
                new ProxmoxHypervisor.Options(Duration.ofMillis(50), Duration.ofMillis(200), Optional.empty()));
        return new Fixture(h, "pve-4090", new VmRef("pve-4090", "102"), Optional.of(new VmRef("pve-4090", "101")),
                Optional.of(new VmRef("pve-3090", "9000")),
                Optional.of(List.of(PciAddress.parse("0000:02:00.0"), PciAddress.parse("0000:02:00.1"))),
                Optional.of(new VmRef("pve-4090", "101")));
    }

    @Override
    protected void release() {
        if (sim != null) {
            sim.close();
        }
    }
}
