package io.gpuforge.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.testing.Tools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The Grafana dashboard shipped in {@code config/grafana/} has the shape Grafana's provisioning loads (no Grafana is
 * packaged for Debian, so its shape is what is checked): a {@code $datasource} variable every panel and query uses
 * by uid, {@code $node} and {@code $gpu} from {@code gpuforge_gpu_info}, panels for the monitor's charts whose PromQL
 * names only metrics {@code gpuforge serve} exports and parses ({@code promtool check rules} on each expression).
 */
class GrafanaDashboardTest {

    private static final Path DIR = Path.of("config/grafana");
    private static final Pattern METRIC = Pattern.compile("\\bgpuforge_[a-z_]+\\b");

    @TempDir
    Path tmp;

    @Test
    void theDashboardUsesItsDatasourceVariableAndOnlyTheServedMetrics() throws Exception {
        JsonNode d = new ObjectMapper().readTree(DIR.resolve("gpuforge-dashboard.json").toFile());
        assertThat(d.path("uid").asText()).isNotBlank();
        assertThat(d.path("title").asText()).isNotBlank();
        JsonNode vars = d.path("templating").path("list");
        assertThat(vars.get(0).path("type").asText()).isEqualTo("datasource");
        assertThat(vars.get(0).path("query").asText()).isEqualTo("prometheus");
        assertThat(names(vars)).containsExactly("datasource", "node", "gpu");
        for (int i = 1; i < vars.size(); i++) {
            assertThat(vars.get(i).path("datasource").path("uid").asText()).isEqualTo("${datasource}");
            assertThat(vars.get(i).path("definition").asText()).contains("gpuforge_gpu_info");
        }
        List<String> exprs = new ArrayList<>();
        TreeSet<String> named = new TreeSet<>();
        for (JsonNode p : d.path("panels")) {
            assertThat(p.path("datasource").path("uid").asText()).as(p.path("title").asText())
                    .isEqualTo("${datasource}");
            assertThat(p.path("gridPos").path("w").asInt()).isPositive();
            for (JsonNode t : p.path("targets")) {
                assertThat(t.path("datasource").path("uid").asText()).isEqualTo("${datasource}");
                String e = t.path("expr").asText();
                assertThat(e).as(p.path("title").asText()).contains("$node");
                exprs.add(e);
                Matcher m = METRIC.matcher(e);
                while (m.find()) {
                    named.add(m.group());
                }
            }
        }
        assertThat(GpuMetricsCollector.names()).as("every metric a panel names is served").containsAll(named);
        assertThat(named).contains("gpuforge_gpu_temperature_celsius", "gpuforge_gpu_power_watts",
                "gpuforge_gpu_utilization_ratio", "gpuforge_gpu_memory_used_bytes", "gpuforge_gpu_info");
        assertThat(exprs).anyMatch(e -> e.startsWith("sum by (node)")).anyMatch(e -> e.startsWith("max by (node)"));

        Tools.require("promtool", "prometheus");
        StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
        for (int i = 0; i < exprs.size(); i++) {
            String e = exprs.get(i).replace("$node", ".*").replace("$gpu", ".*");
            rules.append("      - record: gpuforge:panel_").append(i).append("\n        expr: '")
                    .append(e.replace("'", "''")).append("'\n");
        }
        Path file = Files.writeString(tmp.resolve("panels.yml"), rules);
        Process p = new ProcessBuilder("promtool", "check", "rules", file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("the panels' PromQL parses: " + out).isZero();
    }

    @Test
    void theProvisioningFilesHaveGrafanasShape() throws Exception {
        Map<?, ?> dashboards = new Yaml().load(Files.readString(DIR.resolve("provisioning/dashboards/gpuforge.yaml")));
        assertThat(dashboards.get("apiVersion")).isEqualTo(1);
        Map<?, ?> provider = (Map<?, ?>) ((List<?>) dashboards.get("providers")).get(0);
        assertThat(provider.get("type")).isEqualTo("file");
        assertThat(((Map<?, ?>) provider.get("options")).get("path")).asString().startsWith("/");
        Map<?, ?> sources = new Yaml().load(Files.readString(DIR.resolve("provisioning/datasources/prometheus.yaml")));
        assertThat(sources.get("apiVersion")).isEqualTo(1);
        Map<?, ?> prom = (Map<?, ?>) ((List<?>) sources.get("datasources")).get(0);
        assertThat(prom.get("type")).isEqualTo("prometheus");
        assertThat(prom.get("url")).asString().startsWith("http");
    }

    private static List<String> names(JsonNode vars) {
        List<String> out = new ArrayList<>();
        vars.forEach(v -> out.add(v.path("name").asText()));
        return out;
    }
}
