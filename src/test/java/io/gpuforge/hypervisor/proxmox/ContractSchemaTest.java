package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Our endpoint contract against the official Proxmox VE API schema (shared/pve/apidata.json for 8.4,
 * apidata-pve9.json for 9.1): every endpoint exists with its method, every parameter we send exists with
 * the same type and requiredness, and our allowed values are the schema's.
 */
class ContractSchemaTest {

    private static Map<String, JsonNode> index(JsonNode node, Map<String, JsonNode> out) {
        if (node.isArray()) {
            node.forEach(n -> index(n, out));
        } else if (node.isObject()) {
            if (node.has("path") && node.has("info")) {
                out.put(node.get("path").asText(), node.get("info"));
            }
            if (node.has("children")) {
                index(node.get("children"), out);
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"apidata.json", "apidata-pve9.json"})
    void contractMatchesTheOfficialSchema(String file) throws Exception {
        Path schema = Path.of(System.getProperty("gpuforge.shared", "../shared"), "pve", file);
        if (!Files.isReadable(schema)) {
            String m = schema + " is missing: check out ../shared beside the project";
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError(m);
            }
            Assumptions.abort(m);
        }
        Map<String, JsonNode> paths = index(new ObjectMapper().readTree(schema.toFile()), new HashMap<>());
        PveContract contract = PveContract.load();
        assertThat(contract.endpoints()).hasSizeGreaterThan(30);
        List<String> problems = new ArrayList<>();
        for (PveContract.Endpoint e : contract.endpoints()) {
            JsonNode info = paths.get(e.path());
            if (info == null || !info.has(e.method())) {
                problems.add(e.method() + " " + e.path() + ": not in the schema");
                continue;
            }
            JsonNode props = info.get(e.method()).path("parameters").path("properties");
            e.parameters().forEach((name, p) -> {
                JsonNode s = props.get(name);
                if (s == null) {
                    problems.add(e.method() + " " + e.path() + " " + name + ": no such parameter");
                    return;
                }
                String type = s.path("type").asText();
                if (!type.equals(p.type())) {
                    problems.add(e.method() + " " + e.path() + " " + name + ": type " + p.type() + ", schema " + type);
                }
                boolean required = s.path("optional").asInt(0) != 1;
                if (required != p.required()) {
                    problems.add(e.method() + " " + e.path() + " " + name + ": required " + p.required() + ", schema "
                            + required);
                }
                TreeSet<String> schemaEnum = new TreeSet<>();
                s.path("enum").forEach(v -> schemaEnum.add(v.asText()));
                if (!new TreeSet<>(p.enumValues()).equals(schemaEnum)) {
                    problems.add(e.method() + " " + e.path() + " " + name + ": enum " + p.enumValues() + ", schema "
                            + schemaEnum);
                }
            });
            // every parameter the schema requires is in our contract, so the client can always send it
            props.fields().forEachRemaining(f -> {
                if (f.getValue().path("optional").asInt(0) != 1 && !e.parameters().containsKey(f.getKey())) {
                    problems.add(e.method() + " " + e.path() + " " + f.getKey() + ": required by the schema, missing here");
                }
            });
        }
        assertThat(problems).as("contract vs %s", file).isEmpty();
    }
}
