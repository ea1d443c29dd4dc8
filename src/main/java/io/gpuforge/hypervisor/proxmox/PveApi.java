package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Typed records in and out for the endpoints beyond the inventory. Blocking: background threads only. */
public final class PveApi {

    /** A VM's configuration as key → value, with the digest to send back with a change. */
    public record VmConfig(Map<String, String> values, String digest) {
        public VmConfig {
            values = Map.copyOf(values);
        }
    }

    public record NodeStatus(long uptimeSeconds, double cpu, String kernel, String pveVersion, long memTotal, long memUsed) {
    }

    public record TaskStatus(boolean running, Optional<String> exitStatus) {
    }

    public record Storage(String name, String type, List<String> content, long total, long used, long avail, boolean active) {
        public Storage {
            content = List.copyOf(content);
        }
    }

    public record RrdPoint(Instant time, Optional<Double> cpu, Optional<Long> maxMem) {
    }

    public record ExecStatus(boolean exited, Optional<Integer> exitCode, String out) {
    }

    private final PveClient c;

    public PveApi(PveClient client) {
        this.c = client;
    }

    private static String vm(String node, int vmid) {
        return "/nodes/" + node + "/qemu/" + vmid;
    }

    public VmConfig config(String node, int vmid) throws PveApiException {
        JsonNode d = c.get(vm(node, vmid) + "/config", Map.of());
        Map<String, String> values = new LinkedHashMap<>();
        d.fields().forEachRemaining(f -> {
            if (!f.getKey().equals("digest") && !f.getValue().isContainerNode()) {
                values.put(f.getKey(), f.getValue().asText());
            }
        });
        return new VmConfig(values, PveValues.text(d, "digest").orElse(""));
    }

    /** Changes some keys; refused as a CONFLICT when the VM changed since {@code basedOn} was read. */
    public void updateConfig(String node, int vmid, Map<String, String> changes, VmConfig basedOn) throws PveApiException {
        Map<String, String> p = new LinkedHashMap<>(changes);
        p.put("digest", basedOn.digest());
        c.put(vm(node, vmid) + "/config", p);
    }

    public NodeStatus nodeStatus(String node) throws PveApiException {
        JsonNode d = c.get("/nodes/" + node + "/status", Map.of());
        JsonNode mem = d.path("memory");
        return new NodeStatus(PveValues.number(d, "uptime").orElse(0), d.path("cpu").asDouble(0),
                PveValues.text(d, "kversion").orElse(""), PveValues.text(d, "pveversion").orElse(""),
                PveValues.number(mem, "total").orElse(0), PveValues.number(mem, "used").orElse(0));
    }

    public Upid rebootNode(String node) throws PveApiException {
        return Upid.parse(c.post("/nodes/" + node + "/status", Map.of("command", "reboot")).asText());
    }

    public TaskStatus taskStatus(Upid upid) throws PveApiException {
        JsonNode d = c.get("/nodes/" + upid.node() + "/tasks/" + upid.raw() + "/status", Map.of());
        return new TaskStatus(!"stopped".equals(PveValues.text(d, "status").orElse("")), PveValues.text(d, "exitstatus"));
    }

    public List<Storage> storages(String node) throws PveApiException {
        List<Storage> out = new ArrayList<>();
        for (JsonNode s : c.get("/nodes/" + node + "/storage", Map.of())) {
            out.add(new Storage(PveValues.text(s, "storage").orElse("?"), PveValues.text(s, "type").orElse(""),
                    List.of(PveValues.text(s, "content").orElse("").split(",")), PveValues.number(s, "total").orElse(0),
                    PveValues.number(s, "used").orElse(0), PveValues.number(s, "avail").orElse(0),
                    PveValues.bool(s, "active").orElse(false)));
        }
        return out;
    }

    public List<RrdPoint> rrd(String node, int vmid, String timeframe) throws PveApiException {
        List<RrdPoint> out = new ArrayList<>();
        for (JsonNode p : c.get(vm(node, vmid) + "/rrddata", Map.of("timeframe", timeframe, "cf", "AVERAGE"))) {
            long t = PveValues.number(p, "time").orElse(-1);
            if (t < 0) {
                continue;
            }
            JsonNode cpu = p.get("cpu");
            out.add(new RrdPoint(Instant.ofEpochSecond(t), cpu != null && cpu.isNumber() ? Optional.of(cpu.asDouble())
                    : Optional.empty(), Optional.of(PveValues.number(p, "maxmem")).filter(o -> o.isPresent())
                    .map(o -> o.getAsLong())));
        }
        return out;
    }

    public boolean agentPing(String node, int vmid) {
        try {
            c.post(vm(node, vmid) + "/agent/ping", Map.of());
            return true;
        } catch (PveApiException e) {
            return false;
        }
    }

    public long agentExec(String node, int vmid, String command) throws PveApiException {
        return PveValues.number(c.post(vm(node, vmid) + "/agent/exec", Map.of("command", command)), "pid")
                .orElseThrow(() -> new PveApiException(PveApiException.Kind.PROTOCOL, 200, "the guest agent gave no pid",
                        Map.of(), null));
    }

    public ExecStatus agentExecStatus(String node, int vmid, long pid) throws PveApiException {
        JsonNode d = c.get(vm(node, vmid) + "/agent/exec-status", Map.of("pid", String.valueOf(pid)));
        long code = PveValues.number(d, "exitcode").orElse(Long.MIN_VALUE);
        return new ExecStatus(PveValues.bool(d, "exited").orElse(false),
                code == Long.MIN_VALUE ? Optional.empty() : Optional.of((int) code), PveValues.text(d, "out-data").orElse(""));
    }
}
