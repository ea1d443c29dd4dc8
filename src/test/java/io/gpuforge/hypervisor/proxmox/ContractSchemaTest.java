package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
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

    private static Map<String, JsonNode> schema(String file) throws Exception {
        Path schema = Path.of(System.getProperty("gpuforge.shared", "../shared"), "pve", file);
        if (!Files.isReadable(schema)) {
            String m = schema + " is missing: check out ../shared beside the project";
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError(m);
            }
            Assumptions.abort(m);
        }
        return index(new ObjectMapper().readTree(schema.toFile()), new HashMap<>());
    }

    /**
     * Where PVE versions differ in allowed values (9.1 added {@code decade} to the RRD time frames), the contract
     * holds exactly the values both accept, so what GPUForge sends works on 8.4 and 9.1 alike.
     */
    @Test
    void enumsAreWhatEveryVersionAccepts() throws Exception {
        List<Map<String, JsonNode>> versions = List.of(schema("apidata.json"), schema("apidata-pve9.json"));
        List<String> problems = new ArrayList<>();
        for (PveContract.Endpoint e : PveContract.load().endpoints()) {
            e.parameters().forEach((name, p) -> {
                TreeSet<String> shared = null;
                for (Map<String, JsonNode> v : versions) {
                    TreeSet<String> values = new TreeSet<>();
                    v.getOrDefault(e.path(), MissingNode.getInstance()).path(e.method()).path("parameters").path("properties").path(name).path("enum")
                            .forEach(x -> values.add(x.asText()));
                    if (shared == null) {
                        shared = values;
                    } else {
                        shared.retainAll(values);
                    }
                }
                if (!new TreeSet<>(p.enumValues()).equals(shared)) {
                    problems.add(e.method() + " " + e.path() + " " + name + ": enum " + p.enumValues()
                            + ", every version accepts " + shared);
                }
            });
        }
        assertThat(problems).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"apidata.json", "apidata-pve9.json"})
    void contractMatchesTheOfficialSchema(String file) throws Exception {
        Map<String, JsonNode> paths = schema(file);
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
                // never a value this version refuses, and an enum wherever the schema has one (the values every
                // supported version shares: enumsAreWhatEveryVersionAccepts)
                if (!schemaEnum.containsAll(p.enumValues()) || schemaEnum.isEmpty() != p.enumValues().isEmpty()) {
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
