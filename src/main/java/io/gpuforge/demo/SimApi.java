package io.gpuforge.demo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The simulated endpoints: answers like PVE's, from and into the {@link SimCluster}. This class answers the
 * cluster-wide ones (version, status, resources, mappings, tasks, permissions) and hands the VM, guest-agent
 * and node endpoints to {@link SimVmApi}, {@link SimGuestApi} and {@link SimNodeApi}.
 */
final class SimApi {

    record Answer(int status, String message, Object data, Map<String, String> errors) {
        static Answer ok(Object data) {
            return new Answer(200, "OK", data, Map.of());
        }

        static Answer fail(int status, String message) {
            return new Answer(status, message, null, Map.of());
        }

        /** PVE's 400: "Parameter verification failed." with the problem per parameter. */
        static Answer invalid(Map<String, String> errors) {
            return new Answer(400, "Parameter verification failed.", null, errors);
        }
    }

    /** Who asks: {@code root@pam} (a password login), {@code root@pam!gpuforge} (the API token), another user. */
    record Caller(String user) {
        /** PVE gives raw devices only to the root@pam user itself; a token of root is not root. */
        boolean isRoot() {
            return user.equals("root@pam");
        }

        boolean isAdmin() {
            return user.equals("root@pam") || user.startsWith("root@pam!");
        }
    }

    private static final List<String> PRIVILEGES = List.of("Datastore.Allocate", "Datastore.AllocateSpace",
            "Datastore.AllocateTemplate", "Datastore.Audit", "Group.Allocate", "Mapping.Audit", "Mapping.Modify",
            "Mapping.Use", "Permissions.Modify", "Pool.Allocate", "Pool.Audit", "Realm.Allocate", "Realm.AllocateUser",
            "SDN.Allocate", "SDN.Audit", "SDN.Use", "Sys.AccessNetwork", "Sys.Audit", "Sys.Console", "Sys.Incoming",
            "Sys.Modify", "Sys.PowerMgmt", "Sys.Syslog", "User.Modify", "VM.Allocate", "VM.Audit", "VM.Backup",
            "VM.Clone", "VM.Config.CDROM", "VM.Config.CPU", "VM.Config.Cloudinit", "VM.Config.Disk",
            "VM.Config.HWType", "VM.Config.Memory", "VM.Config.Network", "VM.Config.Options", "VM.Console",
            "VM.Migrate", "VM.Monitor", "VM.PowerMgmt", "VM.Snapshot", "VM.Snapshot.Rollback");
    private static final List<String> AUDITOR = List.of("Datastore.Audit", "Mapping.Audit", "Sys.Audit", "VM.Audit");

    private final SimCluster c;
    private final SimVmApi vms;
    private final SimGuestApi guest;
    private final SimNodeApi nodes;
    private final SimLxcApi containers;

    SimApi(SimCluster c) {
        this.c = c;
        this.vms = new SimVmApi(c);
        this.guest = new SimGuestApi(c);
        this.nodes = new SimNodeApi(c);
        this.containers = new SimLxcApi(c);
    }

    Answer answer(String method, String path, Map<String, String> p, Map<String, List<String>> multi, Caller caller) {
        c.advanceTasks(System.currentTimeMillis());
        if (path.startsWith("/nodes/{node}/qemu/{vmid}/agent/")) {
            return guest.answer(method + " " + path, p, multi);
        }
        if (path.startsWith("/nodes/{node}/qemu")) {
            return vms.answer(method, path, p, multi, caller);
        }
        if (path.startsWith("/nodes/{node}/lxc")) {
            return containers.answer(method, path, p, caller);
        }
        if (path.equals("/nodes/{node}/tasks") && method.equals("GET")) {
            return Answer.ok(nodeTasks(p));
        }
        if (path.startsWith("/nodes/{node}/") && !path.startsWith("/nodes/{node}/tasks/")) {
            return nodes.answer(method + " " + path, p, caller);
        }
        switch (method + " " + path) {
            case "GET /version":
                return Answer.ok(Map.of("version", "8.4.1", "release", "8.4", "repoid", "2a5fa54a8503f96d"));
            case "GET /cluster/status":
                return Answer.ok(clusterStatus());
            case "GET /cluster/resources":
                return Answer.ok(resources(p.get("type")));
            case "GET /nodes":
                return Answer.ok(nodeList());
            case "GET /cluster/mapping/pci":
                return Answer.ok(mappings());
            case "POST /cluster/mapping/pci":
                if (c.mappings.containsKey(p.get("id"))) {
                    return Answer.fail(500, "mapping '" + p.get("id") + "' already exists");
                }
                Answer bad = checkMap(multi.get("map"));
                if (bad != null) {
                    return bad;
                }
                c.mappings.put(p.get("id"), new ArrayList<>(multi.get("map")));
                return Answer.ok(null);
            case "PUT /cluster/mapping/pci/{id}":
                if (!c.mappings.containsKey(p.get("id"))) {
                    return Answer.fail(500, "no such mapping '" + p.get("id") + "'");
                }
                if (multi.containsKey("map")) {
                    Answer badMap = checkMap(multi.get("map"));
                    if (badMap != null) {
                        return badMap;
                    }
                    c.mappings.put(p.get("id"), new ArrayList<>(multi.get("map"))); // PUT replaces the whole map
                }
                return Answer.ok(null);
            case "DELETE /cluster/mapping/pci/{id}":
                return c.mappings.remove(p.get("id")) == null ? Answer.fail(500, "no such mapping '" + p.get("id") + "'")
                        : Answer.ok(null);
            case "GET /cluster/nextid": {
                int id = 100;
                while (c.vms.containsKey(id) || c.containers.byId.containsKey(id)) {
                    id++;
                }
                return Answer.ok(String.valueOf(id));
            }
            case "GET /cluster/tasks":
                return Answer.ok(clusterTasks());
            case "GET /access/permissions":
                return permissions(p, caller);
            case "GET /nodes/{node}/tasks/{upid}/status":
                return taskStatus(p.get("upid"));
            case "GET /nodes/{node}/tasks/{upid}/log":
                return taskLog(p);
            case "DELETE /nodes/{node}/tasks/{upid}": {
                SimTask t = c.tasks.get(p.get("upid"));
                if (t == null) {
                    return Answer.fail(500, "no such task");
                }
                t.stopped = true;
                t.advance(System.currentTimeMillis());
                return Answer.ok(null);
            }
            default:
                return Answer.fail(501, "Method '" + method + " " + path + "' not implemented in the simulator");
        }
    }

    /** Each entry of a mapping names a node, a path and the device's ids, as PVE requires. */
    private Answer checkMap(List<String> entries) {
        for (String e : entries) {
            Map<String, String> kv = SimVmApi.properties(e);
            for (String key : List.of("node", "path", "id")) {
                if (!kv.containsKey(key)) {
                    return Answer.invalid(Map.of("map", "invalid format - missing property '" + key + "' in '" + e + "'"));
                }
            }
            if (c.node(kv.get("node")) == null) {
                return Answer.invalid(Map.of("map", "invalid format - no such node '" + kv.get("node") + "'"));
            }
        }
        return null;
    }

    private Answer taskStatus(String upid) {
        SimTask t = c.tasks.get(upid);
        if (t == null) {
            return Answer.fail(500, "no such task");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("upid", t.upid);
        m.put("node", t.node);
        m.put("type", t.type);
        m.put("id", t.id);
        m.put("status", t.exitStatus == null ? "running" : "stopped");
        if (t.exitStatus != null) {
            m.put("exitstatus", t.exitStatus);
        }
        m.put("starttime", t.startMillis / 1000);
        return Answer.ok(m);
    }

    private Answer taskLog(Map<String, String> p) {
        SimTask t = c.tasks.get(p.get("upid"));
        if (t == null) {
            return Answer.fail(500, "no such task");
        }
        int limit = Integer.parseInt(p.getOrDefault("limit", "50"));
        int start = Integer.parseInt(p.getOrDefault("start", "0"));
        List<Object> lines = new ArrayList<>();
        for (int i = start; i < t.log.size() && (limit == 0 || lines.size() < limit); i++) {
            lines.add(Map.of("n", i + 1, "t", t.log.get(i)));
        }
        return Answer.ok(lines);
    }

    /**
     * A node's tasks, newest first, as PVE filters them: {@code vmid}, {@code typefilter}, {@code errors} (failed
     * ones only), {@code start} and {@code limit} (50 when not given).
     */
    private List<Object> nodeTasks(Map<String, String> p) {
        int limit = Integer.parseInt(p.getOrDefault("limit", "50"));
        int skip = Integer.parseInt(p.getOrDefault("start", "0"));
        boolean errors = List.of("1", "true").contains(p.getOrDefault("errors", "0"));
        List<Object> out = new ArrayList<>();
        List<SimTask> all = new ArrayList<>(c.tasks.values());
        for (int i = all.size() - 1; i >= 0 && out.size() < limit; i--) {
            SimTask t = all.get(i);
            if (!t.node.equals(p.get("node")) || (p.containsKey("vmid") && !t.id.equals(p.get("vmid")))
                    || (p.containsKey("typefilter") && !t.type.equals(p.get("typefilter")))
                    || (errors && (t.exitStatus == null || t.exitStatus.equals("OK")))) {
                continue;
            }
            if (skip > 0) {
                skip--;
                continue;
            }
            out.add(task(t));
        }
        return out;
    }

    private static Map<String, Object> task(SimTask t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("upid", t.upid);
        m.put("node", t.node);
        m.put("type", t.type);
        m.put("id", t.id);
        m.put("user", t.upid.split(":")[7]);
        m.put("starttime", t.startMillis / 1000);
        if (t.exitStatus != null) {
            m.put("endtime", t.endMillis / 1000);
            m.put("status", t.exitStatus);
        }
        return m;
    }

    /** The cluster's recent tasks, newest first: running ones without {@code endtime} and {@code status}. */
    private List<Object> clusterTasks() {
        List<Object> out = new ArrayList<>();
        List<SimTask> all = new ArrayList<>(c.tasks.values());
        for (int i = all.size() - 1; i >= 0 && out.size() < 100; i--) {
            out.add(task(all.get(i)));
        }
        return out;
    }

    /** What the caller (or {@code userid}) may do, per ACL path; 1 = also below that path. */
    private Answer permissions(Map<String, String> p, Caller caller) {
        String user = p.getOrDefault("userid", caller.user());
        if (!user.equals(caller.user()) && !caller.isAdmin()) {
            return Answer.fail(403, "Permission check failed (/access, Sys.Audit)");
        }
        boolean admin = new Caller(user).isAdmin();
        Map<String, Object> privs = new TreeMap<>();
        (admin ? PRIVILEGES : AUDITOR).stream().filter(priv -> !c.withheld.getOrDefault(user, Set.of()).contains(priv))
                .forEach(priv -> privs.put(priv, 1));
        Map<String, Object> out = new LinkedHashMap<>();
        if (p.containsKey("path")) {
            out.put(p.get("path"), privs);
        } else {
            out.put("/", privs);
            if (admin) {
                out.put("/access", privs);
                out.put("/mapping", privs);
                out.put("/nodes", privs);
                out.put("/storage", privs);
                out.put("/vms", privs);
            }
        }
        return Answer.ok(out);
    }

    private List<Object> clusterStatus() {
        List<Object> out = new ArrayList<>();
        out.add(Map.of("type", "cluster", "id", "cluster", "name", "gpuforge-demo", "nodes", c.nodes.size(), "quorate", 1,
                "version", 3));
        int i = 1;
        for (SimCluster.Node n : c.nodes) {
            out.add(Map.of("type", "node", "id", "node/" + n.name(), "name", n.name(), "nodeid", i++, "online", 1,
                    "local", i == 2 ? 1 : 0, "ip", "192.0.2." + (10 + i)));
        }
        return out;
    }

    private List<Object> resources(String type) {
        List<Object> out = new ArrayList<>();
        if (type == null || type.equals("node")) {
            for (SimCluster.Node n : c.nodes) {
                out.add(Map.of("id", "node/" + n.name(), "type", "node", "node", n.name(), "status", "online",
                        "maxcpu", 32, "maxmem", 137438953472L, "cpu", 0.12, "mem", 34359738368L, "uptime", 86400));
            }
        }
        if (type == null || type.equals("vm")) {
            for (SimVm v : c.vms.values()) {
                Map<String, String> cfg = v.config;
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("id", "qemu/" + v.vmid);
                m.put("type", "qemu");
                m.put("vmid", v.vmid);
                m.put("node", v.node);
                m.put("name", cfg.getOrDefault("name", "vm" + v.vmid));
                m.put("status", v.status);
                m.put("template", v.template ? 1 : 0);
                m.put("maxmem", SimVmApi.memoryMiB(cfg) * 1024 * 1024);
                m.put("maxcpu", Integer.parseInt(cfg.getOrDefault("sockets", "1"))
                        * Integer.parseInt(cfg.getOrDefault("cores", "1")));
                m.put("uptime", v.status.equals("running") ? 3600 : 0);
                out.add(m);
            }
            for (SimContainers.Ct ct : c.containers.byId.values()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("id", "lxc/" + ct.vmid);
                m.put("type", "lxc");
                m.put("vmid", ct.vmid);
                m.put("node", ct.node);
                m.put("name", ct.config.getOrDefault("hostname", "CT" + ct.vmid));
                m.put("status", ct.status);
                m.put("maxcpu", number(ct.config.get("cores"), 1));
                m.put("maxmem", number(ct.config.get("memory"), 512) * 1024 * 1024);
                m.put("uptime", ct.status.equals("running") ? 3600 : 0);
                out.add(m);
            }
        }
        return out;
    }

    /** A whole number of a configuration, or {@code otherwise} when it is missing or not one. */
    private static long number(String value, long otherwise) {
        return value != null && value.matches("\\d{1,12}") ? Long.parseLong(value) : otherwise;
    }

    private List<Object> nodeList() {
        List<Object> out = new ArrayList<>();
        for (SimCluster.Node n : c.nodes) {
            out.add(Map.of("node", n.name(), "status", "online", "maxcpu", 32, "maxmem", 137438953472L,
                    "ssl_fingerprint", "00:11:22:33"));
        }
        return out;
    }

    private List<Object> mappings() {
        List<Object> out = new ArrayList<>();
        c.mappings.forEach((id, map) -> out.add(Map.of("id", id, "type", "pci", "map", map)));
        return out;
    }
}
