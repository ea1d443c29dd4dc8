package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Filters and counts do what they say on the Demo lab (issue 60, step 2): {@code --node} keeps that node's GPUs and
 * an unknown node is a usage error naming the nodes; a list without {@code --node} covers the whole cluster;
 * {@code gpu watch --count N} gives N samples of every GPU, not N lines.
 */
class GpuFiltersCliTest {

    @TempDir
    Path home;
    private CliHarness cli;

    @BeforeEach
    void lab() {
        cli = new CliHarness(home);
        assertThat(cli.run(new String[] {"connection", "add", "Demo lab", "--demo"})).as(cli.err()).isZero();
    }

    @Test
    void gpuListKeepsTheNodeNamedAndRefusesANodeThereIsNot() throws Exception {
        assertThat(cli.run(new String[] {"gpu", "list", "--connection", "Demo lab", "--node", "pve-4090", "--json"}))
                .as(cli.err()).isZero();
        List<String> gpus = new ArrayList<>();
        cli.json().get("gpus").forEach(g -> gpus.add(g.get("node").asText() + "/" + g.get("gpu").asText()));
        assertThat(gpus).containsExactlyInAnyOrder("pve-4090/0000:01:00.0", "pve-4090/0000:02:00.0");

        assertThat(cli.run(new String[] {"gpu", "list", "--connection", "Demo lab", "--node", "pve-store"}))
                .as(cli.err()).isZero();
        assertThat(cli.out().strip()).isEqualTo("no GPU on node pve-store");

        assertThat(cli.run(new String[] {"gpu", "list", "--connection", "Demo lab", "--node", "nosuch"})).isEqualTo(2);
        assertThat(cli.err().strip()).isEqualTo("gpuforge gpu list: no node 'nosuch' on Demo lab (its nodes: pve-4090,"
                + " pve-3090, pve-store)");
        assertThat(cli.out()).isEmpty();
        assertThat(cli.run(new String[] {"gpu", "watch", "--connection", "Demo lab", "--node", "nosuch", "--count",
            "1"})).isEqualTo(2);
        assertThat(cli.err()).contains("no node 'nosuch'");
    }

    @Test
    void watchCountsSamplesOfEveryGpuNotLines() throws Exception {
        assertThat(cli.run(new String[] {"gpu", "watch", "--connection", "Demo lab", "--interval", "0.2", "--count",
            "2", "--json"})).as(cli.err()).isZero();
        Map<String, Integer> perGpu = new TreeMap<>();
        ObjectMapper m = new ObjectMapper();
        for (String line : cli.out().lines().toList()) {
            JsonNode j = m.readTree(line);
            perGpu.merge(j.get("node").asText() + "/" + j.get("gpu").asText(), 1, Integer::sum);
        }
        assertThat(perGpu).as("two samples of each of the six GPUs").hasSize(6).allSatisfy((g, n) ->
                assertThat(n).as(g).isEqualTo(2));

        assertThat(cli.run(new String[] {"gpu", "watch", "--connection", "Demo lab", "--interval", "0.2", "--count",
            "1", "--node", "pve-4090", "--json"})).as(cli.err()).isZero();
        assertThat(cli.out().lines()).hasSize(2).allSatisfy(l -> assertThat(l).contains("\"node\":\"pve-4090\""));

        assertThat(cli.run(new String[] {"gpu", "watch", "--connection", "Demo lab", "--count", "0"})).isEqualTo(2);
        assertThat(cli.err().strip()).isEqualTo("gpuforge gpu watch: --count must be 1 or more, not 0");
    }

    @Test
    void shareListWithoutANodeCoversTheWholeCluster() throws Exception {
        assertThat(cli.run(new String[] {"share", "list", "--connection", "Demo lab", "--json"})).as(cli.err())
                .isZero();
        List<String> nodes = new ArrayList<>();
        List<String> shared = new ArrayList<>();
        for (JsonNode n : cli.json().get("nodes")) {
            nodes.add(n.get("node").asText());
            n.get("gpus").forEach(g -> g.get("containers").forEach(c -> shared.add(n.get("node").asText() + "/"
                    + g.get("gpu").asText() + " CT " + c.get("vmid").asInt())));
        }
        assertThat(nodes).containsExactly("pve-4090", "pve-3090", "pve-store");
        assertThat(shared).containsExactly("pve-3090/0000:04:00.0 CT 201");

        assertThat(cli.run(new String[] {"share", "list", "--connection", "Demo lab"})).as(cli.err()).isZero();
        assertThat(cli.out()).contains("Node pve-3090\n").contains("GPU 0000:04:00.0 NVIDIA GeForce RTX 3090 (nvidia):"
                + " shared by 1 container\n").contains("Node pve-store: no GPU, no container sharing one");

        assertThat(cli.run(new String[] {"share", "list", "--connection", "Demo lab", "--node", "nosuch"}))
                .isEqualTo(2);
        assertThat(cli.err().strip()).isEqualTo("gpuforge share list: no node 'nosuch' on Demo lab (its nodes:"
                + " pve-4090, pve-3090, pve-store)");
    }
}
