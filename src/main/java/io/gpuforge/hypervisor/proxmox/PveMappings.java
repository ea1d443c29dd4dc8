package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.domain.pci.PciAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The cluster's PCI resource mappings ({@code /cluster/mapping/pci}): each has an id and one entry per node
 * ({@code node=pve1,path=0000:01:00,id=10de:2204,subsystem-id=…,iommugroup=12}). A {@code path} without a
 * function stands for every function of the slot.
 */
public record PveMappings(List<Mapping> all) {

    /** One node's device in a mapping. */
    public record Entry(String node, String path, String ids, Optional<Integer> iommuGroup) {
        /** Function 0 of the card, or the function the path names; empty when the path is not a PCI id. */
        public Optional<PciAddress> address() {
            List<PciAddress> a = PveConfigParser.addresses(path.split(";")[0], x -> List.of());
            return a.isEmpty() ? Optional.empty() : Optional.of(a.get(0));
        }

        /** Whether this entry names {@code slotOrFunction} ({@code 0000:02:00} or {@code 0000:02:00.0}) on {@code node}. */
        boolean names(String onNode, String wanted) {
            return node.equals(onNode) && normal(path).equals(normal(wanted));
        }
    }

    public record Mapping(String id, String description, List<Entry> entries) {
        public Mapping {
            entries = List.copyOf(entries);
        }

        public List<Entry> on(String node) {
            return entries.stream().filter(e -> e.node().equals(node)).toList();
        }
    }

    public PveMappings {
        all = List.copyOf(all);
    }

    public static PveMappings read(PveClient c) throws PveApiException {
        return from(c.get("/cluster/mapping/pci", Map.of()));
    }

    /** From the answer's data; entries of a shape PVE would not write are left out. */
    static PveMappings from(JsonNode data) {
        List<Mapping> out = new ArrayList<>();
        for (JsonNode m : data) {
            Optional<String> id = PveValues.text(m, "id");
            JsonNode map = m.get("map");
            if (id.isEmpty() || map == null || !map.isArray()) {
                continue;
            }
            List<Entry> entries = new ArrayList<>();
            for (JsonNode e : map) {
                Map<String, String> kv = PveConfigParser.properties(e.asText());
                if (kv.containsKey("node") && kv.containsKey("path")) {
                    entries.add(new Entry(kv.get("node"), kv.get("path"), kv.getOrDefault("id", ""),
                            Optional.ofNullable(kv.get("iommugroup")).flatMap(PveMappings::integer)));
                }
            }
            out.add(new Mapping(id.get(), PveValues.text(m, "description").orElse(""), entries));
        }
        return new PveMappings(out);
    }

    public Optional<Mapping> get(String id) {
        return all.stream().filter(m -> m.id().equals(id)).findFirst();
    }

    /** The paths a mapping gives a VM on {@code node} (empty when it maps nothing there). */
    public List<String> paths(String id, String node) {
        return get(id).map(m -> m.on(node).stream().flatMap(e -> List.of(e.path().split(";")).stream()).toList())
                .orElse(List.of());
    }

    /** The first mapping whose entry for {@code node} is exactly {@code path}. */
    public Optional<Mapping> naming(String node, String path) {
        return all.stream().filter(m -> m.entries().stream().anyMatch(e -> e.names(node, path))).findFirst();
    }

    /** {@code 02:00} and {@code 0000:02:00} are the same path. */
    static String normal(String path) {
        String p = path.strip().toLowerCase(Locale.ROOT);
        return p.matches("^[0-9a-f]{2}:.*") ? "0000:" + p : p;
    }

    private static Optional<Integer> integer(String s) {
        try {
            return Optional.of(Integer.parseInt(s.strip()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
