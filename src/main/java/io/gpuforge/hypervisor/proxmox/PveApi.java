package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Base64;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** Typed records in and out for the endpoints beyond the inventory. Blocking: background threads only. */
public final class PveApi {

    /** A VM's configuration as key → value, with the digest to send back with a change. */
    public record VmConfig(Map<String, String> values, String digest) {
        public VmConfig {
            values = Map.copyOf(values);
        }
    }

    /** @param cpus logical CPUs ({@code cpuinfo.cpus}), 0 when the node does not say */
    public record NodeStatus(long uptimeSeconds, double cpu, String kernel, String pveVersion, long memTotal, long memUsed,
                             int cpus) {
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

    /** A guest-agent process: still running ({@code exited} false, no exit code), or its end with the output. */
    public record ExecStatus(boolean exited, Optional<Integer> exitCode, String out, String err) {
    }

    /** One node RRD point ({@code /nodes/{node}/rrddata}); a value the node did not record is empty. */
    public record NodeRrdPoint(Instant time, OptionalDouble cpu, OptionalLong memUsed, OptionalLong memTotal,
                               OptionalDouble loadAverage, OptionalDouble netIn, OptionalDouble netOut) {
    }

    /** A task of the cluster's recent list: running while {@code status} is empty. */
    public record ClusterTask(String upid, String node, String type, String id, String user, Instant started,
                              Optional<Instant> ended, Optional<String> status) {
        public boolean running() {
            return status.isEmpty();
        }
    }

    /**
     * What a user may do, per ACL path ({@code /}, {@code /vms/101}, {@code /mapping/pci/gpu-a}): privilege →
     * whether it also holds below the path (propagate).
     */
    public record Permissions(Map<String, Map<String, Boolean>> byPath) {
        public Permissions {
            Map<String, Map<String, Boolean>> copy = new LinkedHashMap<>();
            byPath.forEach((k, v) -> copy.put(k, Map.copyOf(v)));
            byPath = Collections.unmodifiableMap(copy);
        }

        /** Whether {@code privilege} holds on {@code path}, there or propagated from a path above it. */
        public boolean has(String path, String privilege) {
            for (String p = path; ; p = parent(p)) {
                Map<String, Boolean> privs = byPath.get(p);
                if (privs != null && privs.containsKey(privilege) && (p.equals(path) || privs.get(privilege))) {
                    return true;
                }
                if (p.equals("/")) {
                    return false;
                }
            }
        }

        private static String parent(String p) {
            int i = p.lastIndexOf('/');
            return i <= 0 ? "/" : p.substring(0, i);
        }
    }

    /** What {@code download-url} fetches into a storage: an ISO or a disk image to import, checked if a sum is given. */
    public record Download(String content, String url, String filename, Optional<String> checksum,
                           Optional<String> checksumAlgorithm) {
        public Download {
            if (!List.of("iso", "import", "vztmpl").contains(content)) {
                throw new IllegalArgumentException("A download is an ISO image (iso), a disk image to import (import) or a"
                        + " container template (vztmpl), not '" + content + "'");
            }
            if (!url.startsWith("https://") && !url.startsWith("http://")) {
                throw new IllegalArgumentException("Proxmox VE downloads over http(s) only: '" + url + "'");
            }
            if (filename.isBlank() || filename.contains("/")) {
                throw new IllegalArgumentException("A file name without '/' is needed for the download, not '" + filename + "'");
            }
            if (checksum.isPresent() != checksumAlgorithm.isPresent()) {
                throw new IllegalArgumentException("A checksum and its algorithm (sha256, sha512…) go together");
            }
        }
    }

    /** The most {@code content} characters {@code agent/file-write} takes (its schema's maxLength). */
    public static final int FILE_WRITE_MAX_CHARS = 61440;

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

    /**
     * Sets {@code set} and removes {@code delete} in one write, refused as a CONFLICT when the VM changed since the
     * configuration with {@code digest} was read.
     */
    public void updateConfig(String node, int vmid, Map<String, String> set, List<String> delete, String digest)
            throws PveApiException {
        Map<String, String> p = new LinkedHashMap<>(set);
        if (!delete.isEmpty()) {
            p.put("delete", String.join(",", delete));
        }
        p.put("digest", digest);
        c.put(vm(node, vmid) + "/config", p);
    }

    public NodeStatus nodeStatus(String node) throws PveApiException {
        JsonNode d = c.get("/nodes/" + node + "/status", Map.of());
        JsonNode mem = d.path("memory");
        return new NodeStatus(PveValues.number(d, "uptime").orElse(0), d.path("cpu").asDouble(0),
                PveValues.text(d, "kversion").orElse(""), PveValues.text(d, "pveversion").orElse(""),
                PveValues.number(mem, "total").orElse(0), PveValues.number(mem, "used").orElse(0),
                (int) PveValues.number(d.path("cpuinfo"), "cpus").orElse(0));
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

    /** The node's own RRD (CPU, memory, load, network) over {@code timeframe}: hour, day, week, month, year. */
    public List<NodeRrdPoint> nodeRrd(String node, String timeframe, boolean max) throws PveApiException {
        List<NodeRrdPoint> out = new ArrayList<>();
        for (JsonNode p : c.get("/nodes/" + node + "/rrddata", Map.of("timeframe", timeframe, "cf", max ? "MAX" : "AVERAGE"))) {
            long t = PveValues.number(p, "time").orElse(-1);
            if (t >= 0) {
                out.add(new NodeRrdPoint(Instant.ofEpochSecond(t), decimal(p, "cpu"), PveValues.number(p, "memused"),
                        PveValues.number(p, "memtotal"), decimal(p, "loadavg"), decimal(p, "netin"), decimal(p, "netout")));
            }
        }
        return out;
    }

    private static OptionalDouble decimal(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v != null && v.isNumber()) {
            return OptionalDouble.of(v.asDouble());
        }
        try {
            return v != null && v.isTextual() ? OptionalDouble.of(Double.parseDouble(v.asText())) : OptionalDouble.empty();
        } catch (NumberFormatException e) {
            return OptionalDouble.empty();
        }
    }

    /** A task's log from its first line, at most {@code limit} lines (PVE gives 50 when not asked). */
    public List<String> taskLog(Upid upid, int limit) throws PveApiException {
        List<String> out = new ArrayList<>();
        for (JsonNode l : c.get("/nodes/" + upid.node() + "/tasks/" + upid.raw() + "/log", Map.of("start", "0",
                "limit", String.valueOf(limit)))) {
            out.add(PveValues.text(l, "t").orElse(""));
        }
        return out;
    }

    /**
     * A node's tasks, newest first, as PVE filters them: of one VM, of one type ({@code qmstart}), the failed ones
     * only; at most {@code limit}. Reaches further back than the cluster's recent list.
     */
    public List<ClusterTask> nodeTasks(String node, int vmid, String type, boolean failedOnly, int limit)
            throws PveApiException {
        Map<String, String> q = new LinkedHashMap<>();
        q.put("vmid", String.valueOf(vmid));
        q.put("typefilter", type);
        q.put("errors", failedOnly ? "1" : "0");
        q.put("limit", String.valueOf(limit));
        return tasks(c.get("/nodes/" + node + "/tasks", q));
    }

    /** The cluster's recent tasks (every node), newest first. */
    public List<ClusterTask> clusterTasks() throws PveApiException {
        return tasks(c.get("/cluster/tasks", Map.of()));
    }

    private static List<ClusterTask> tasks(JsonNode list) {
        List<ClusterTask> out = new ArrayList<>();
        for (JsonNode t : list) {
            Optional<String> upid = PveValues.text(t, "upid");
            if (upid.isEmpty()) {
                continue;
            }
            long end = PveValues.number(t, "endtime").orElse(-1);
            out.add(new ClusterTask(upid.get(), PveValues.text(t, "node").orElse(""), PveValues.text(t, "type").orElse(""),
                    PveValues.text(t, "id").orElse(""), PveValues.text(t, "user").orElse(""),
                    Instant.ofEpochSecond(PveValues.number(t, "starttime").orElse(0)),
                    end < 0 ? Optional.empty() : Optional.of(Instant.ofEpochSecond(end)), PveValues.text(t, "status")));
        }
        return out;
    }

    /** The privileges of the caller (or of {@code userid}), on every path or on {@code path} only. */
    public Permissions permissions(Optional<String> path, Optional<String> userid) throws PveApiException {
        Map<String, String> q = new LinkedHashMap<>();
        path.ifPresent(p -> q.put("path", p));
        userid.ifPresent(u -> q.put("userid", u));
        Map<String, Map<String, Boolean>> out = new LinkedHashMap<>();
        c.get("/access/permissions", q).fields().forEachRemaining(p -> {
            Map<String, Boolean> privs = new LinkedHashMap<>();
            p.getValue().fields().forEachRemaining(priv -> privs.put(priv.getKey(), PveValues.bool(p.getValue(),
                    priv.getKey()).orElse(false)));
            out.put(p.getKey(), privs);
        });
        return new Permissions(out);
    }

    /** Has the node fetch a file into a storage; the task's log tells the progress. */
    public Upid downloadUrl(String node, String storage, Download d) throws PveApiException {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("content", d.content());
        p.put("url", d.url());
        p.put("filename", d.filename());
        d.checksum().ifPresent(v -> p.put("checksum", v));
        d.checksumAlgorithm().ifPresent(v -> p.put("checksum-algorithm", v));
        return Upid.parse(c.post("/nodes/" + node + "/storage/" + storage + "/download-url", p).asText());
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
        return agentExec(node, vmid, List.of(command));
    }

    /** Starts {@code argv} (no shell) in the guest; each word goes as its own {@code command} value. */
    public long agentExec(String node, int vmid, List<String> argv) throws PveApiException {
        return PveValues.number(c.post(vm(node, vmid) + "/agent/exec", Map.of(), Map.of("command", argv)), "pid")
                .orElseThrow(() -> new PveApiException(PveApiException.Kind.PROTOCOL, 200, "the guest agent gave no pid",
                        Map.of(), null));
    }

    /**
     * Writes {@code content} byte for byte as {@code file} in the guest ({@code agent/file-write}): sent as base64
     * with {@code encode=0}, as QEMU's guest-file-write takes it, so any bytes arrive unchanged. Refused before
     * sending when the encoded content is longer than PVE takes.
     */
    public void agentFileWrite(String node, int vmid, String file, byte[] content) throws PveApiException {
        String b64 = Base64.getEncoder().encodeToString(content);
        if (b64.length() > FILE_WRITE_MAX_CHARS) {
            throw new PveApiException(PveApiException.Kind.BAD_REQUEST, 400, "The file " + file + " is too large for the"
                    + " guest agent: " + content.length + " bytes, Proxmox VE takes at most " + FILE_WRITE_MAX_CHARS / 4 * 3
                    + " per write", Map.of("content", "value may only be " + FILE_WRITE_MAX_CHARS + " characters long"),
                    null);
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("file", file);
        p.put("content", b64);
        p.put("encode", "0");
        c.post(vm(node, vmid) + "/agent/file-write", p);
    }

    public ExecStatus agentExecStatus(String node, int vmid, long pid) throws PveApiException {
        JsonNode d = c.get(vm(node, vmid) + "/agent/exec-status", Map.of("pid", String.valueOf(pid)));
        long code = PveValues.number(d, "exitcode").orElse(Long.MIN_VALUE);
        return new ExecStatus(PveValues.bool(d, "exited").orElse(false),
                code == Long.MIN_VALUE ? Optional.empty() : Optional.of((int) code), PveValues.text(d, "out-data").orElse(""),
                PveValues.text(d, "err-data").orElse(""));
    }
}
