package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * GPUForge's own contract of the Proxmox VE endpoints it uses ({@code /pve/contract.json}): method,
 * path, and for each parameter its type, whether it is required and its allowed values. The client
 * sends nothing outside it and the simulator refuses what breaks it; a test keeps it equal to the
 * official schema.
 */
public record PveContract(List<Endpoint> endpoints) {

    /** One parameter: {@code string|integer|number|boolean|array}, required or not, optional enum. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Param(String type, boolean required, List<String> enumValues) {
        public Param {
            enumValues = enumValues == null ? List.of() : List.copyOf(enumValues);
        }
    }

    /** One method on one path; {@code [n]} parameters stand for {@code hostpci0}, {@code net1}, … */
    public record Endpoint(String method, String path, Map<String, Param> parameters, Pattern pattern) {
        public Endpoint {
            parameters = Map.copyOf(parameters);
            pattern = Pattern.compile("^" + path.replaceAll("\\{[^}]+}", "[^/]+") + "$");
        }

        public Endpoint(String method, String path, Map<String, Param> parameters) {
            this(method, path, parameters, null);
        }

        /** The parameter a sent name stands for ({@code hostpci3} → {@code hostpci[n]}). */
        public Optional<Param> param(String name) {
            Param p = parameters.get(name);
            if (p != null) {
                return Optional.of(p);
            }
            String indexed = name.replaceFirst("\\d+$", "[n]");
            return Optional.ofNullable(parameters.get(indexed));
        }

        /** Whether a concrete path such as {@code /nodes/pve1/qemu/100/config} is this endpoint. */
        public boolean matches(String concretePath) {
            return pattern.matcher(concretePath).matches();
        }
    }

    public static PveContract load() {
        try (InputStream in = PveContract.class.getResourceAsStream("/pve/contract.json")) {
            if (in == null) {
                throw new IllegalStateException("/pve/contract.json is missing from the application");
            }
            var tree = new ObjectMapper().readTree(in);
            List<Endpoint> out = new ArrayList<>();
            for (var e : tree.get("endpoints")) {
                Map<String, Param> params = new LinkedHashMap<>();
                e.get("parameters").fields().forEachRemaining(f -> {
                    List<String> en = new ArrayList<>();
                    if (f.getValue().has("enum")) {
                        f.getValue().get("enum").forEach(v -> en.add(v.asText()));
                    }
                    params.put(f.getKey(), new Param(f.getValue().get("type").asText(),
                            f.getValue().get("required").asBoolean(), en));
                });
                out.add(new Endpoint(e.get("method").asText(), e.get("path").asText(), params));
            }
            return new PveContract(out);
        } catch (IOException e) {
            throw new IllegalStateException("/pve/contract.json cannot be read", e);
        }
    }

    public Optional<Endpoint> find(String method, String concretePath) {
        return endpoints.stream().filter(e -> e.method().equals(method) && e.matches(concretePath)).findFirst();
    }
}
