package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A whole Proxmox VE cluster in four requests: {@code /version}, {@code /cluster/status},
 * {@code /cluster/resources} (every node and VM) and {@code /cluster/mapping/pci} (every GPU mapped for
 * passthrough). Never one request per node.
 */
public record PveInventory(String version, String clusterName, List<Node> nodes, List<Vm> vms, List<GpuMapping> gpus) {

    public record Node(String name, String status, long maxCpu, long maxMemBytes) {
    }

    public record Vm(int vmid, String node, String name, String status, boolean template, long maxMemBytes, long cpus) {
    }

    /** A PCI resource mapping entry: one GPU on one node. */
    public record GpuMapping(String id, String node, String path, String ids, Optional<Integer> iommuGroup) {
    }

    public PveInventory {
        nodes = List.copyOf(nodes);
        vms = List.copyOf(vms);
        gpus = List.copyOf(gpus);
    }

    public static PveInventory read(PveClient c) throws PveApiException {
        return from(c.get("/version", Map.of()), c.get("/cluster/status", Map.of()), c.get("/cluster/resources", Map.of()),
                c.get("/cluster/mapping/pci", Map.of()));
    }

    /** From the four answers' data members; wrong shapes give unknown values, never an exception. */
    static PveInventory from(JsonNode versionData, JsonNode status, JsonNode resources, JsonNode mappings) {
        String version = PveValues.text(versionData, "version").orElse("?");
        String cluster = "";
        for (JsonNode s : status) {
            if ("cluster".equals(PveValues.text(s, "type").orElse(""))) {
                cluster = PveValues.text(s, "name").orElse("");
            }
        }
        List<Node> nodes = new ArrayList<>();
        List<Vm> vms = new ArrayList<>();
        for (JsonNode r : resources) {
            String type = PveValues.text(r, "type").orElse("");
            if (type.equals("node")) {
                nodes.add(new Node(PveValues.text(r, "node").orElse("?"), PveValues.text(r, "status").orElse("unknown"),
                        PveValues.number(r, "maxcpu").orElse(0), PveValues.number(r, "maxmem").orElse(0)));
            } else if (type.equals("qemu")) {
                vms.add(new Vm((int) PveValues.number(r, "vmid").orElse(0), PveValues.text(r, "node").orElse("?"),
                        PveValues.text(r, "name").orElse(""), PveValues.text(r, "status").orElse("unknown"),
                        PveValues.bool(r, "template").orElse(false), PveValues.number(r, "maxmem").orElse(0),
                        PveValues.number(r, "maxcpu").orElse(0)));
            }
        }
        List<GpuMapping> gpus = new ArrayList<>();
        for (JsonNode m : mappings) {
            String id = PveValues.text(m, "id").orElse("?");
            JsonNode map = m.get("map");
            if (map == null || !map.isArray()) {
                continue;
            }
            for (JsonNode entry : map) {
                Map<String, String> kv = properties(entry.asText());
                gpus.add(new GpuMapping(id, kv.getOrDefault("node", "?"), kv.getOrDefault("path", "?"),
                        kv.getOrDefault("id", ""), Optional.ofNullable(kv.get("iommugroup")).flatMap(PveInventory::integer)));
            }
        }
        return new PveInventory(version, cluster, nodes, vms, gpus);
    }

    private static Optional<Integer> integer(String s) {
        try {
            return Optional.of(Integer.parseInt(s));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** A PVE property string {@code node=pve1,path=0000:01:00,id=10de:2204} as a map. */
    static Map<String, String> properties(String s) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String part : s.split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                out.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
            }
        }
        return out;
    }
}
