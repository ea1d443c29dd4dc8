package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.ContainerInfo;
import io.gpuforge.domain.share.ContainerSpec;
import io.gpuforge.share.ContainerParams;
import io.gpuforge.domain.share.RawLxc;
import io.gpuforge.domain.vm.VmAction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Proxmox VE's LXC containers over the client: list (each with its configuration: {@code devN} entries and the raw
 * {@code lxc} pairs the API answers), create from a {@code vztmpl} volume, device entries changed against the
 * configuration's digest, power actions and delete. Blocking: background only.
 */
final class PveContainers {

    private final PveClient client;

    PveContainers(PveClient client) {
        this.client = client;
    }

    private static String ct(String node, int vmid) {
        return "/nodes/" + node + "/lxc/" + vmid;
    }

    List<ContainerInfo> list(String node) throws PveApiException {
        List<ContainerInfo> out = new ArrayList<>();
        JsonNode list = client.get("/nodes/" + node + "/lxc", Map.of());
        List<JsonNode> sorted = new ArrayList<>();
        list.forEach(sorted::add);
        sorted.sort((a, b) -> Integer.compare(a.path("vmid").asInt(), b.path("vmid").asInt()));
        for (JsonNode c : sorted) {
            int vmid = c.path("vmid").asInt();
            out.add(config(node, vmid, PveValues.text(c, "status").orElse("unknown")));
        }
        return out;
    }

    ContainerInfo config(String node, int vmid) throws PveApiException {
        String status = PveValues.text(client.get(ct(node, vmid) + "/status/current", Map.of()), "status")
                .orElse("unknown");
        return config(node, vmid, status);
    }

    private ContainerInfo config(String node, int vmid, String status) throws PveApiException {
        JsonNode d = client.get(ct(node, vmid) + "/config", Map.of());
        Map<Integer, ContainerDevice> devices = new TreeMap<>();
        d.fields().forEachRemaining(f -> {
            if (f.getKey().matches("dev\\d{1,3}")) {
                ContainerDevice.parse(f.getValue().asText()).ifPresent(v -> devices.put(
                        Integer.parseInt(f.getKey().substring(3)), v));
            }
        });
        List<RawLxc> lxc = new ArrayList<>();
        d.path("lxc").forEach(pair -> {
            if (pair.isArray() && pair.size() == 2) {
                lxc.add(new RawLxc(pair.get(0).asText(), pair.get(1).asText()));
            }
        });
        Map<String, String> settings = new TreeMap<>();
        d.fields().forEachRemaining(f -> {
            if (!f.getKey().matches("dev\\d{1,3}|lxc|digest") && f.getValue().isValueNode()) {
                settings.put(f.getKey(), f.getValue().asText());
            }
        });
        String name = PveValues.text(d, "hostname").orElse("CT" + vmid);
        return new ContainerInfo(node, vmid, name, status, devices, lxc, PveValues.text(d, "digest"), settings);
    }

    Upid create(String node, ContainerSpec s) throws PveApiException {
        return Upid.parse(client.post("/nodes/" + node + "/lxc", ContainerParams.of(s)).asText());
    }

    void devices(String node, int vmid, Map<Integer, Optional<ContainerDevice>> changes, String digest)
            throws PveApiException {
        Map<String, String> p = new LinkedHashMap<>();
        List<String> delete = new ArrayList<>();
        changes.forEach((i, d) -> {
            if (d.isPresent()) {
                p.put("dev" + i, d.get().value());
            } else {
                delete.add("dev" + i);
            }
        });
        if (!delete.isEmpty()) {
            p.put("delete", String.join(",", delete));
        }
        p.put("digest", digest);
        client.put(ct(node, vmid) + "/config", p);
    }

    Upid action(String node, int vmid, VmAction action) throws PveApiException {
        String verb = switch (action) {
            case START -> "start";
            case SHUTDOWN -> "shutdown";
            case STOP -> "stop";
            default -> throw new IllegalArgumentException("a container cannot " + action);
        };
        return Upid.parse(client.post(ct(node, vmid) + "/status/" + verb, Map.of()).asText());
    }

    Upid delete(String node, int vmid) throws PveApiException {
        return Upid.parse(client.delete(ct(node, vmid), Map.of("purge", "1")).asText());
    }
}
