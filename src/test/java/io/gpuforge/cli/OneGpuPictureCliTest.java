package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Demo lab's GPUs as {@code inventory} and {@code gpu list} give them (issue 60, step 1, its first part): the
 * same six GPUs of three nodes (mapped or not), the same model names; the inventory names each one's driver and who
 * holds it (train-01 the 4090 it has by its mapping, CT 201 the 3090 it shares), and counts VMs, templates and
 * containers apart; {@code gpu list} names the same drivers and holders, {@code iommu} the same drivers.
 */
class OneGpuPictureCliTest {

    @TempDir
    Path home;

    @Test
    void inventoryAndGpuListGiveTheSameGpusWithDriversAndHolders() throws Exception {
        CliHarness cli = new CliHarness(home);
        assertThat(cli.run(new String[] {"connection", "add", "Demo lab", "--demo"})).as(cli.err()).isZero();

        assertThat(cli.run(new String[] {"inventory", "--connection", "Demo lab"})).as(cli.err()).isZero();
        assertThat(cli.out()).startsWith("gpuforge-demo (Proxmox VE 8.4.1): 3 nodes, 5 VMs, 1 template, 1 container,"
                + " 6 GPUs").contains("  GPU pve-4090 0000:01:00.0  NVIDIA GeForce RTX 4090  driver vfio-pci  mapping"
                + " gpu-4090-a  in VM 101 (train-01)").contains("  GPU pve-3090 0000:04:00.0  NVIDIA GeForce RTX 3090"
                + "  driver nvidia  shared by CT 201")
                // llm-70b and render-02 both name the 3090 at 01:00.0: one holder (the lower id), the other said too
                .contains("  GPU pve-3090 0000:01:00.0  NVIDIA GeForce RTX 3090  driver nvidia  mapping llm-3090  in VM"
                        + " 121 (llm-70b), also set up in VM 122 (render-02)");

        // connection test counts the same way
        assertThat(cli.run(new String[] {"connection", "test", "Demo lab"})).as(cli.err()).isZero();
        assertThat(cli.out()).contains(", 3 nodes, 5 VMs (templates apart)");

        assertThat(cli.run(new String[] {"inventory", "--connection", "Demo lab", "--json"})).as(cli.err()).isZero();
        JsonNode inventory = cli.json().get("gpus");
        Set<String> listed = new TreeSet<>();
        for (JsonNode g : inventory) {
            listed.add(g.get("node").asText() + "/" + g.get("address").asText() + " " + g.get("name").asText());
            assertThat(g.get("driver").asText()).as(g.toString()).isIn("nvidia", "vfio-pci");
            assertThat(g.get("holder").get("kind").asText()).as(g.toString()).isIn("vm", "containers", "free");
            assertThat(g.get("iommu_group").isInt()).as(g.toString()).isTrue();
        }
        JsonNode train = find(inventory, "pve-4090", "0000:01:00.0");
        assertThat(train.get("holder").get("vm").asText()).isEqualTo("101");
        assertThat(train.get("assigned_to").asText()).isEqualTo("101");
        assertThat(find(inventory, "pve-3090", "0000:04:00.0").get("holder").get("containers").get(0).asInt())
                .isEqualTo(201);
        JsonNode twice = find(inventory, "pve-3090", "0000:01:00.0").get("holder");
        assertThat(twice.get("vm").asText()).isEqualTo("121");
        assertThat(twice.get("also_in").get(0).get("vm").asText()).isEqualTo("122");

        // the holder said once per line: not the reading's VM and then the holder again
        assertThat(cli.run(new String[] {"gpu", "list", "--connection", "Demo lab"})).as(cli.err()).isZero();
        assertThat(cli.out().lines().filter(l -> l.contains("pve-4090/0000:01:00.0"))).singleElement().asString()
                .endsWith("driver vfio-pci  in VM 101 (train-01)").doesNotContain("in train-01");

        assertThat(cli.run(new String[] {"gpu", "list", "--connection", "Demo lab", "--json"})).as(cli.err()).isZero();
        Set<String> read = new TreeSet<>();
        for (JsonNode g : cli.json().get("gpus")) {
            read.add(g.get("node").asText() + "/" + g.get("gpu").asText() + " " + g.get("name").asText());
            // the same driver and holder as the inventory's
            JsonNode same = find(inventory, g.get("node").asText(), g.get("gpu").asText());
            assertThat(g.get("driver")).as(g.toString()).isEqualTo(same.get("driver"));
            assertThat(g.get("holder")).as(g.toString()).isEqualTo(same.get("holder"));
        }
        assertThat(listed).hasSize(6).isEqualTo(read);

        // iommu names the same drivers, read from each node's host as the inventory's (Proxmox VE's listing has none)
        for (String node : new String[] {"pve-4090", "pve-3090"}) {
            assertThat(cli.run(new String[] {"iommu", "--connection", "Demo lab", "--node", node, "--json"}))
                    .as(cli.err()).isZero();
            int gpus = 0;
            for (JsonNode group : cli.json().get("groups")) {
                for (JsonNode d : group.get("devices")) {
                    if (d.get("class").asText().startsWith("03")) {
                        gpus++;
                        assertThat(d.get("driver").asText()).as(node + " " + d).isEqualTo(find(inventory, node,
                                d.get("address").asText()).get("driver").asText());
                    }
                }
            }
            assertThat(gpus).as(node).isEqualTo(node.equals("pve-4090") ? 2 : 4);
        }
    }

    private static JsonNode find(JsonNode gpus, String node, String address) {
        for (JsonNode g : gpus) {
            if (g.get("node").asText().equals(node) && g.get("address").asText().equals(address)) {
                return g;
            }
        }
        throw new AssertionError("no GPU " + node + "/" + address + " in " + gpus);
    }
}
