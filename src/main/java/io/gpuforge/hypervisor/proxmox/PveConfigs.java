package io.gpuforge.hypervisor.proxmox;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.pci.NodePci;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmDetails;
import io.gpuforge.domain.vm.VmRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A VM's configuration on Proxmox VE: read with its {@code digest}, its PCI devices resolved through resource
 * mappings and the node's listing (a slot without a function names every function of the card), and written as
 * keys set and deleted against the digest it was read at. Every method blocks on the network.
 */
final class PveConfigs {

    /** The node's PCI listing as read before, else read now; null when the node cannot tell. */
    @FunctionalInterface
    interface KnownPci {
        NodePci known(String node);
    }

    private final PveSession session;
    private final PveClient client;
    private final PveApi api;
    private final KnownPci knownPci;
    private final Map<VmRef, List<PciAddress>> devicesRead;

    /** @param devicesRead where each VM's host devices are noted as read (the inventory shows them) */
    PveConfigs(PveSession session, PveClient client, PveApi api, KnownPci pci,
               Map<VmRef, List<PciAddress>> devicesRead) {
        this.session = session;
        this.client = client;
        this.api = api;
        this.knownPci = pci;
        this.devicesRead = devicesRead;
    }

    /** The configuration with its digest; the VM's host devices noted for the inventory. */
    VmConfig read(VmRef vm) throws BackendException {
        int vmid = ProxmoxHypervisor.vmid(vm);
        PveApi.VmConfig raw = session.call(() -> api.config(vm.node(), vmid));
        List<PveConfigParser.HostPci> pcis = PveConfigParser.hostPcis(raw.values());
        PveMappings mappings = pcis.stream().anyMatch(h -> h.mapping().isPresent())
                ? session.call(() -> PveMappings.read(client)) : new PveMappings(List.of());
        boolean slots = pcis.stream().flatMap(h -> h.mapping().map(m -> mappings.paths(m, vm.node())).orElse(h.ids())
                .stream()).anyMatch(id -> !id.contains("."));
        NodePci pci = slots ? knownPci.known(vm.node()) : null;
        PveConfigParser.Resolvers resolvers = new PveConfigParser.Resolvers(m -> mappings.paths(m, vm.node()),
                a -> pci == null ? List.of() : PveGpuAttach.functions(pci, a));
        VmDetails details = PveConfigParser.details(raw.values(), resolvers);
        devicesRead.put(vm, details.hostDevices());
        return new VmConfig(vm, raw.digest(), details, raw.values(), PveConfigParser.document(raw.values()));
    }

    /** Sets and deletes the change's keys against {@code basedOnVersion}; returns what the VM has now. */
    VmConfig write(VmRef vm, ConfigChange change, String basedOnVersion) throws BackendException {
        int vmid = ProxmoxHypervisor.vmid(vm);
        ProxmoxHypervisor.requireVersion(basedOnVersion);
        Map<String, String> set = new LinkedHashMap<>();
        List<String> delete = new ArrayList<>();
        if (change instanceof ConfigChange.Resources) {
            ConfigChange.Resources r = (ConfigChange.Resources) change;
            r.cores().ifPresent(c -> set.put("cores", String.valueOf(c)));
            r.memoryMiB().ifPresent(m -> set.put("memory", String.valueOf(m)));
            r.name().ifPresent(n -> set.put("name", n));
        } else if (change instanceof ConfigChange.Settings) {
            ((ConfigChange.Settings) change).keys().forEach((k, v) -> {
                if (v.isPresent()) {
                    set.put(k, v.get());
                } else {
                    delete.add(k);
                }
            });
        } else {
            throw BackendException.unsupported("Proxmox VE", Capability.VM_CONFIG_DOCUMENT);
        }
        if (set.isEmpty() && delete.isEmpty()) {
            return read(vm);
        }
        session.call(() -> {
            api.updateConfig(vm.node(), vmid, set, delete, basedOnVersion);
            return null;
        });
        return read(vm);
    }
}
