package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.pci.NodePci;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.GpuAttachRequest;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.vm.VmRef;
import java.util.Map;

/**
 * A GPU passed through to a stopped Proxmox VE VM and taken away again, for {@link ProxmoxHypervisor}: the VM's
 * configuration checked to be at the version the change is based on, a PCI resource mapping made where the card has
 * none (an API token may not set a raw {@code hostpciN}) and taken back if the configuration change then fails.
 */
final class PveGpuPassthrough {

    private final PveSession session;
    private final PveClient client;
    private final PveApi api;
    private final ProxmoxHypervisor hypervisor;

    PveGpuPassthrough(PveSession session, PveClient client, PveApi api, ProxmoxHypervisor hypervisor) {
        this.session = session;
        this.client = client;
        this.api = api;
        this.hypervisor = hypervisor;
    }

    GpuAttachResult attach(GpuAttachRequest r) throws BackendException {
        VmRef vm = r.vm();
        int vmid = ProxmoxHypervisor.vmid(vm);
        PveGpuAttach.Plan plan = plan(r);
        session.call(() -> {
            if (plan.mapping().isPresent()) {
                PveGpuAttach.NewMapping m = plan.mapping().get();
                client.post("/cluster/mapping/pci", Map.of("id", m.id(), "map", m.entry(), "description", m.description()));
            }
            try {
                api.updateConfig(vm.node(), vmid, plan.set(), plan.delete(), r.basedOnVersion());
            } catch (PveApiException e) {
                if (plan.mapping().isPresent()) {
                    undoMapping(plan.mapping().get().id());
                }
                throw e;
            }
            return null;
        });
        return new GpuAttachResult(plan.changes(), hypervisor.readConfig(vm));
    }

    /** What {@link #attach} would write, refused as it would refuse; nothing is written. */
    GpuAttachResult preview(GpuAttachRequest r) throws BackendException {
        return new GpuAttachResult(plan(r).changes(), hypervisor.readConfig(r.vm()));
    }

    /** What an attach writes: the stopped VM at the request's version, the node's cards, the cluster's mappings. */
    private PveGpuAttach.Plan plan(GpuAttachRequest r) throws BackendException {
        VmRef vm = r.vm();
        ProxmoxHypervisor.requireVersion(r.basedOnVersion());
        PveApi.VmConfig cfg = stoppedAt(vm, ProxmoxHypervisor.vmid(vm), r.basedOnVersion(), "passing a GPU through"
                + " to it");
        NodePci pci = hypervisor.nodePci(vm.node());
        PveMappings mappings = session.call(() -> PveMappings.read(client));
        return PveGpuAttach.attach(r, cfg.values(), pci, mappings);
    }

    private void undoMapping(String id) {
        try {
            client.delete("/cluster/mapping/pci/" + id, Map.of());
        } catch (PveApiException e) {
            // the mapping stays, unused: a later attach of the same card reuses it
        }
    }

    GpuAttachResult detach(VmRef vm, PciAddress gpu, String basedOnVersion) throws BackendException {
        int vmid = ProxmoxHypervisor.vmid(vm);
        ProxmoxHypervisor.requireVersion(basedOnVersion);
        PveApi.VmConfig cfg = stoppedAt(vm, vmid, basedOnVersion, "taking a GPU away from it");
        NodePci pci = hypervisor.nodePci(vm.node());
        PveMappings mappings = session.call(() -> PveMappings.read(client));
        PveGpuAttach.Removal removal = PveGpuAttach.detach(vm, gpu, cfg.values(), pci, mappings);
        session.call(() -> {
            api.updateConfig(vm.node(), vmid, Map.of(), removal.delete(), basedOnVersion);
            return null;
        });
        return new GpuAttachResult(removal.changes(), hypervisor.readConfig(vm));
    }

    /**
     * The configuration of a stopped VM that is still at {@code version}. PVE would take PCI changes to a running
     * VM only as pending changes (applied at the next cold start), which the user would not see take effect: such a
     * change is refused here instead.
     */
    private PveApi.VmConfig stoppedAt(VmRef vm, int vmid, String version, String what) throws BackendException {
        PveApi.VmConfig cfg = session.call(() -> api.config(vm.node(), vmid));
        if (!cfg.digest().equals(version)) {
            throw new BackendException(BackendException.Kind.CONFLICT, "VM " + vm.id() + " changed since its"
                    + " configuration was read: read it again and retry");
        }
        JsonNode status = session.call(() -> client.get("/nodes/" + vm.node() + "/qemu/" + vmid + "/status/current",
                Map.of()));
        if (!"stopped".equals(PveValues.text(status, "status").orElse("stopped"))) {
            throw new BackendException(BackendException.Kind.INVALID, "VM " + vm.id() + " is running: shut it down"
                    + " before " + what + " (Proxmox VE would only keep it as a pending change until the next start)");
        }
        return cfg;
    }
}
