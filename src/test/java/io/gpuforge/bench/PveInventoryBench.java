package io.gpuforge.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.hypervisor.proxmox.PveApiException;
import io.gpuforge.hypervisor.proxmox.PveClient;
import io.gpuforge.hypervisor.proxmox.PveContract;
import io.gpuforge.hypervisor.proxmox.PveCredentials;
import io.gpuforge.hypervisor.proxmox.PveInventory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Inventory of a 16-node / 2,000-VM / 64-GPU simulated cluster: GPUForge's four cluster-wide requests
 * against the naive per-node listing (/nodes, then qemu and hardware/pci per node), same run, median of
 * 7 after 5 warm-up rounds (JIT). Writes target/bench/pve-inventory.json.
 */
@Tag("bench")
class PveInventoryBench {

    @Test
    void inventoryVersusPerNodeListing() throws Exception {
        try (PveSimulator sim = new PveSimulator(SimCluster.generated(16, 2000, 64))) {
            PveClient probe = new PveClient(sim.url(), PveCredentials.Token.parse(sim.token()), Optional.empty(),
                    PveContract.load());
            try {
                probe.get("/version", Map.of());
            } catch (PveApiException expected) {
                // first contact: read the fingerprint to pin
            }
            String pin = probe.serverFingerprint().orElseThrow();
            PveClient c = new PveClient(sim.url(), PveCredentials.Token.parse(sim.token()), Optional.of(pin), PveContract.load());
            List<Long> ours = new ArrayList<>();
            List<Long> naive = new ArrayList<>();
            int oursRequests = 0;
            int naiveRequests = 0;
            PveInventory inv = null;
            for (int i = 0; i < 12; i++) {
                int r0 = c.requestCount();
                long t0 = System.nanoTime();
                inv = PveInventory.read(c);
                long t1 = System.nanoTime();
                oursRequests = c.requestCount() - r0;
                int vms = 0;
                int gpus = 0;
                int r1 = c.requestCount();
                long t2 = System.nanoTime();
                for (JsonNode n : c.get("/nodes", Map.of())) {
                    String node = n.get("node").asText();
                    vms += c.get("/nodes/" + node + "/qemu", Map.of()).size();
                    for (JsonNode d : c.get("/nodes/" + node + "/hardware/pci", Map.of("pci-class-blacklist", ""))) {
                        if (d.get("class").asText().startsWith("0x03")) {
                            gpus++;
                        }
                    }
                }
                long t3 = System.nanoTime();
                naiveRequests = c.requestCount() - r1;
                assertThat(vms).isEqualTo(2000);
                assertThat(gpus).isEqualTo(64);
                if (i >= 5) {
                    ours.add((t1 - t0) / 1_000_000);
                    naive.add((t3 - t2) / 1_000_000);
                }
            }
            ours.sort(Long::compare);
            naive.sort(Long::compare);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("benchmark", "pve-inventory-16-nodes-2000-vms-64-gpus");
            out.put("nodes", inv.nodes().size());
            out.put("vms", inv.vms().size());
            out.put("gpus", inv.gpus().size());
            out.put("gpuforge_requests", oursRequests);
            out.put("gpuforge_ms", ours);
            out.put("gpuforge_median_ms", ours.get(3));
            out.put("per_node_requests", naiveRequests);
            out.put("per_node_ms", naive);
            out.put("per_node_median_ms", naive.get(3));
            out.put("target", "<= 4 requests, < 150 ms");
            Files.createDirectories(Path.of("target/bench"));
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(
                    Path.of("target/bench/pve-inventory.json").toFile(), out);
            assertThat(inv.nodes()).hasSize(16);
            assertThat(inv.vms()).hasSize(2000);
            assertThat(inv.gpus()).hasSize(64);
            assertThat(oursRequests).isLessThanOrEqualTo(4);
        }
    }
}
