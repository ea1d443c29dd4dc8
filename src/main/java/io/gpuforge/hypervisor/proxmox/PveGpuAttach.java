package io.gpuforge.hypervisor.proxmox;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.GpuAttachRequest;
import io.gpuforge.domain.pci.NodePci;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.pci.PciMappingIds;
import io.gpuforge.domain.vm.VmDisk;
import io.gpuforge.domain.vm.VmRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plans giving a GPU to a VM the way PVE wants it, and taking it back. API tokens may not set a raw
 * {@code hostpciN} (PVE: "only root can set 'hostpci0' config for non-mapped devices"), so the card always goes
 * through a PCI resource mapping: the one that already maps this node + path is reused, else one is created
 * ({@code node=…,path=…,id=…,subsystem-id=…,iommugroup=…}, which PVE checks at VM start). The VM gets
 * {@code hostpciN: mapping=<id>,pcie=1} ({@code ,x-vga=1} for the primary GPU) in the first free N, {@code machine:
 * q35}, {@code bios: ovmf}, an {@code efidisk0} when it has none (4 MiB OVMF vars without pre-enrolled Secure Boot
 * keys, which would refuse NVIDIA's unsigned driver) and {@code balloon: 0} (ballooning cannot work with the guest
 * memory pinned for DMA). A request for every function of the slot maps the slot ({@code 0000:01:00}), a request
 * for one function maps that function. Detaching removes the {@code hostpciN} that points at the card, through a
 * mapping or raw, and leaves the mapping for the next VM. Pure.
 */
final class PveGpuAttach {

    static final int MAX_HOSTPCI = 16;

    /** A mapping to create before the configuration is written. */
    record NewMapping(String id, String entry, String description) {
    }

    /** What to write: the mapping (when new), the keys to set and to delete, each change as the user should read it. */
    record Plan(Optional<NewMapping> mapping, Map<String, String> set, List<String> delete, List<String> changes) {
        Plan {
            set = Map.copyOf(set);
            delete = List.copyOf(delete);
            changes = List.copyOf(changes);
        }
    }

    /** The keys to delete, and what they held. */
    record Removal(List<String> delete, List<String> changes) {
        Removal {
            delete = List.copyOf(delete);
            changes = List.copyOf(changes);
        }
    }

    private PveGpuAttach() {
    }

    static Plan attach(GpuAttachRequest r, Map<String, String> current, NodePci pci, PveMappings mappings)
            throws BackendException {
        String node = r.vm().node();
        // the cards this one replaces go in the same write: their hostpciN are free for it
        Map<String, String> cfg = new LinkedHashMap<>(current);
        List<String> removed = new ArrayList<>();
        List<String> removedChanges = new ArrayList<>();
        for (PciAddress old : r.replacing()) {
            Removal rm = detach(r.vm(), old, current, pci, mappings);
            rm.delete().forEach(cfg::remove);
            removed.addAll(rm.delete());
            removedChanges.addAll(rm.changes());
        }
        PciAddress card = r.gpu();
        for (PciAddress f : r.functions()) {
            if (!f.sameSlot(card)) {
                throw invalid("A GPU attach names the functions of one card: " + f + " is not in slot " + slot(card));
            }
            if (pci.inventory().device(f).isEmpty()) {
                throw new BackendException(BackendException.Kind.NOT_FOUND, f + " is not a PCI device of node " + node
                        + " (as its PCI listing shows it now)");
            }
        }
        List<PciAddress> slotFunctions = functions(pci, card);
        String path;
        if (r.functions().containsAll(slotFunctions)) {
            path = slot(card);
        } else if (r.functions().size() == 1) {
            path = r.functions().get(0).toString();
        } else {
            throw invalid("PVE maps a whole card or one function: pass every function of " + slot(card) + " ("
                    + slotFunctions.size() + ") or one of them");
        }
        for (PveConfigParser.HostPci h : PveConfigParser.hostPcis(cfg)) {
            if (uses(h, node, card, mappings, pci)) {
                throw invalid("VM " + r.vm().id() + " has " + slot(card) + " already (" + h.key() + ": " + cfg.get(h.key())
                        + ")");
            }
        }
        List<String> changes = new ArrayList<>(removedChanges);
        Optional<NewMapping> create = Optional.empty();
        String id;
        Optional<PveMappings.Mapping> existing = mappings.naming(node, path);
        if (existing.isPresent()) {
            id = existing.get().id();
        } else {
            id = newMappingId(r, node, card, mappings);
            PciDevice d = pci.inventory().device(card).orElseThrow();
            StringBuilder entry = new StringBuilder("node=" + node + ",path=" + path + ",id=" + d.vendorId() + ":"
                    + d.deviceId());
            if (d.details().subsystemVendor().isPresent() && d.details().subsystemDevice().isPresent()) {
                entry.append(",subsystem-id=").append(d.details().subsystemVendor().get()).append(':')
                        .append(d.details().subsystemDevice().get());
            }
            d.iommuGroup().ifPresent(g -> entry.append(",iommugroup=").append(g));
            create = Optional.of(new NewMapping(id, entry.toString(), d.name().orElse("GPU") + " (" + path + ") on "
                    + node + ", made by GPUForge"));
            changes.add("PCI resource mapping " + id + ": " + entry + " (new)");
        }
        Map<String, String> set = new LinkedHashMap<>();
        set.put(freeHostPci(cfg, r.vm()), "mapping=" + id + ",pcie=1" + (r.primaryGpu() ? ",x-vga=1" : ""));
        String machine = cfg.getOrDefault("machine", "");
        if (!PveConfigParser.machineType(machine).contains("q35")) {
            set.put("machine", "q35");
        }
        if (!"ovmf".equals(cfg.get("bios"))) {
            set.put("bios", "ovmf");
        }
        if (!cfg.containsKey("efidisk0")) {
            String storage = r.efiStorage().or(() -> diskStorage(cfg)).orElseThrow(() -> invalid("VM " + r.vm().id()
                    + " has no disk to put its EFI disk beside: name the storage for the EFI disk"));
            set.put("efidisk0", storage + ":1,efitype=4m,pre-enrolled-keys=0");
        }
        if (!"0".equals(cfg.get("balloon"))) {
            set.put("balloon", "0");
        }
        set.forEach((k, v) -> changes.add(k + ": " + v));
        return new Plan(create, set, removed.stream().filter(k -> !set.containsKey(k)).toList(), changes);
    }

    static Removal detach(VmRef vm, PciAddress gpu, Map<String, String> cfg, NodePci pci, PveMappings mappings)
            throws BackendException {
        List<String> delete = new ArrayList<>();
        List<String> changes = new ArrayList<>();
        for (PveConfigParser.HostPci h : PveConfigParser.hostPcis(cfg)) {
            if (uses(h, vm.node(), gpu, mappings, pci)) {
                delete.add(h.key());
                changes.add(h.key() + ": " + cfg.get(h.key()) + " (removed)");
            }
        }
        if (delete.isEmpty()) {
            throw new BackendException(BackendException.Kind.NOT_FOUND, "VM " + vm.id() + " has no PCI device of "
                    + slot(gpu) + " (no hostpciN points at it)");
        }
        return new Removal(delete, changes);
    }

    /** Whether a {@code hostpciN} gives the VM a function of {@code card}'s slot, through its mapping or raw. */
    private static boolean uses(PveConfigParser.HostPci h, String node, PciAddress card, PveMappings mappings,
                                NodePci pci) {
        List<String> ids = h.mapping().map(m -> mappings.paths(m, node)).orElse(h.ids());
        return ids.stream().flatMap(id -> PveConfigParser.addresses(id, a -> functions(pci, a)).stream())
                .anyMatch(card::sameSlot);
    }

    static List<PciAddress> functions(NodePci pci, PciAddress card) {
        return pci.inventory().devices().stream().map(PciDevice::address).filter(card::sameSlot).sorted().toList();
    }

    private static String newMappingId(GpuAttachRequest r, String node, PciAddress card, PveMappings mappings)
            throws BackendException {
        if (r.mapping().isPresent()) {
            String id = r.mapping().get();
            if (!id.matches("[A-Za-z][A-Za-z0-9_-]*")) {
                throw invalid("A PCI resource mapping name starts with a letter and holds letters, digits, '-' and '_':"
                        + " '" + id + "' is not one");
            }
            if (mappings.get(id).isPresent()) {
                throw invalid("The PCI resource mapping '" + id + "' exists already and does not map " + slot(card)
                        + " on " + node + ": pick another name, or leave it empty to let GPUForge choose one");
            }
            return id;
        }
        String base = PciMappingIds.forCard(node, card);
        String id = base;
        for (int n = 2; mappings.get(id).isPresent(); n++) {
            id = base + "-" + n;
        }
        return id;
    }

    private static String freeHostPci(Map<String, String> cfg, VmRef vm) throws BackendException {
        for (int n = 0; n < MAX_HOSTPCI; n++) {
            if (!cfg.containsKey("hostpci" + n)) {
                return "hostpci" + n;
            }
        }
        throw invalid("VM " + vm.id() + " has all " + MAX_HOSTPCI + " PCI slots (hostpci0…" + (MAX_HOSTPCI - 1)
                + ") in use");
    }

    /** The storage of the VM's first disk that is not a CD-ROM ({@code local-lvm} of {@code local-lvm:vm-101-disk-0}). */
    private static Optional<String> diskStorage(Map<String, String> cfg) {
        return PveConfigParser.disks(cfg).stream().filter(d -> !d.cdrom()).map(VmDisk::source)
                .filter(s -> s.contains(":")).map(s -> s.substring(0, s.indexOf(':'))).findFirst();
    }

    /** {@code 0000:02:00}: the slot of a card as PVE writes it. */
    static String slot(PciAddress a) {
        return a.slotAddress();
    }

    private static BackendException invalid(String message) {
        return new BackendException(BackendException.Kind.INVALID, message);
    }
}
