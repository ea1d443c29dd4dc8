package io.gpuforge.demo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The simulated endpoints: answers like PVE's, from and into the {@link SimCluster}. */
final class SimApi {

    record Answer(int status, String message, Object data, Map<String, String> errors) {
        static Answer ok(Object data) {
            return new Answer(200, "OK", data, Map.of());
        }

        static Answer fail(int status, String message) {
            return new Answer(status, message, null, Map.of());
        }
    }

    private final SimCluster c;

    SimApi(SimCluster c) {
        this.c = c;
    }

    Answer answer(String method, String path, Map<String, String> p, Map<String, List<String>> multi) {
        switch (method + " " + path) {
            case "GET /version":
                return Answer.ok(Map.of("version", "8.4.1", "release", "8.4", "repoid", "2a5fa54a8503f96d"));
            case "GET /cluster/status":
                return Answer.ok(clusterStatus());
            case "GET /cluster/resources":
                return Answer.ok(resources(p.get("type")));
            case "GET /nodes":
                return Answer.ok(nodes());
            case "GET /nodes/{node}/hardware/pci":
                return node(p.get("node")) == null ? Answer.fail(500, "no such node '" + p.get("node") + "'")
                        : Answer.ok(pci(node(p.get("node")), p.get("pci-class-blacklist")));
            case "GET /cluster/mapping/pci":
                return Answer.ok(mappings());
            case "POST /cluster/mapping/pci":
                if (c.mappings.containsKey(p.get("id"))) {
                    return Answer.fail(500, "mapping '" + p.get("id") + "' already exists");
                }
                c.mappings.put(p.get("id"), new ArrayList<>(multi.get("map")));
                return Answer.ok(null);
            case "GET /cluster/nextid": {
                int id = 100;
                while (c.vms.containsKey(id)) {
                    id++;
                }
                return Answer.ok(String.valueOf(id));
            }
            case "GET /nodes/{node}/qemu":
                return Answer.ok(qemu(p.get("node")));
            case "GET /nodes/{node}/qemu/{vmid}/config": {
                SimCluster.Vm vm = vm(p);
                if (vm == null) {
                    return Answer.fail(500, "Configuration file 'nodes/" + p.get("node") + "/qemu-server/" + p.get("vmid")
                            + ".conf' does not exist");
                }
                Map<String, Object> cfg = new LinkedHashMap<>(vm.config);
                cfg.put("digest", vm.digest());
                return Answer.ok(cfg);
            }
            case "PUT /nodes/{node}/qemu/{vmid}/config":
            case "POST /nodes/{node}/qemu/{vmid}/config": {
                SimCluster.Vm vm = vm(p);
                if (vm == null) {
                    return Answer.fail(500, "VM " + p.get("vmid") + " does not exist");
                }
                if (p.containsKey("digest") && !p.get("digest").equals(vm.digest())) {
                    return Answer.fail(500, "can't update config: checksum mismatch");
                }
                p.forEach((k, v) -> {
                    if (!List.of("node", "vmid", "digest", "delete").contains(k)) {
                        vm.config.put(k, v);
                    }
                });
                if (p.containsKey("delete")) {
                    for (String k : p.get("delete").split("[,;\\s]+")) {
                        vm.config.remove(k);
                    }
                }
                return Answer.ok(null);
            }
            case "POST /nodes/{node}/qemu/{vmid}/clone":
                return clone(p);
            case "POST /nodes/{node}/qemu/{vmid}/template": {
                SimCluster.Vm vm = vm(p);
                if (vm == null) {
                    return Answer.fail(500, "VM " + p.get("vmid") + " does not exist");
                }
                return task(p.get("node"), "qmtemplate", p.get("vmid"), () -> {
                    vm.template = true;
                    vm.config.put("template", "1");
                });
            }
            case "POST /nodes/{node}/qemu/{vmid}/status/start":
            case "POST /nodes/{node}/qemu/{vmid}/status/stop":
            case "POST /nodes/{node}/qemu/{vmid}/status/shutdown":
            case "POST /nodes/{node}/qemu/{vmid}/status/reboot": {
                SimCluster.Vm vm = vm(p);
                if (vm == null) {
                    return Answer.fail(500, "VM " + p.get("vmid") + " does not exist");
                }
                if (vm.template) {
                    return Answer.fail(500, "you can't start a vm if it's a template");
                }
                String action = path.substring(path.lastIndexOf('/') + 1);
                return task(p.get("node"), "qm" + action, p.get("vmid"), () -> vm.status =
                        action.equals("start") || action.equals("reboot") ? "running" : "stopped");
            }
            case "GET /nodes/{node}/qemu/{vmid}/status/current": {
                SimCluster.Vm vm = vm(p);
                return vm == null ? Answer.fail(500, "VM " + p.get("vmid") + " does not exist")
                        : Answer.ok(Map.of("vmid", vm.vmid, "status", vm.status, "name", vm.config.getOrDefault("name", ""),
                                "qmpstatus", vm.status, "template", vm.template ? 1 : 0));
            }
            case "GET /nodes/{node}/tasks/{upid}/status": {
                SimCluster.Task t = c.tasks.get(p.get("upid"));
                if (t == null) {
                    return Answer.fail(500, "no such task");
                }
                t.advance(System.currentTimeMillis());
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("upid", t.upid);
                m.put("node", t.node);
                m.put("status", t.exitStatus == null ? "running" : "stopped");
                if (t.exitStatus != null) {
                    m.put("exitstatus", t.exitStatus);
                }
                m.put("starttime", t.startMillis / 1000);
                return Answer.ok(m);
            }
            case "GET /nodes/{node}/tasks/{upid}/log": {
                SimCluster.Task t = c.tasks.get(p.get("upid"));
                if (t == null) {
                    return Answer.fail(500, "no such task");
                }
                t.advance(System.currentTimeMillis());
                int limit = Integer.parseInt(p.getOrDefault("limit", "50"));
                int start = Integer.parseInt(p.getOrDefault("start", "0"));
                List<Object> lines = new ArrayList<>();
                for (int i = start; i < t.log.size() && (limit == 0 || lines.size() < limit); i++) {
                    lines.add(Map.of("n", i + 1, "t", t.log.get(i)));
                }
                return Answer.ok(lines);
            }
            case "DELETE /nodes/{node}/tasks/{upid}": {
                SimCluster.Task t = c.tasks.get(p.get("upid"));
                if (t == null) {
                    return Answer.fail(500, "no such task");
                }
                t.stopped = true;
                t.advance(System.currentTimeMillis());
                return Answer.ok(null);
            }
            case "GET /nodes/{node}/status":
                return node(p.get("node")) == null ? Answer.fail(500, "no such node")
                        : Answer.ok(Map.of("uptime", 86400, "cpu", 0.12, "kversion", "Linux 6.8.12-4-pve #1 SMP PREEMPT_DYNAMIC",
                                "pveversion", "pve-manager/8.4.1/2a5fa54a8503f96d", "memory", Map.of("total", 137438953472L,
                                        "used", 34359738368L)));
            case "POST /nodes/{node}/status":
                return node(p.get("node")) == null ? Answer.fail(500, "no such node")
                        : task(p.get("node"), "srv" + p.get("command"), "", () -> { });
            case "PUT /cluster/mapping/pci/{id}":
                if (!c.mappings.containsKey(p.get("id"))) {
                    return Answer.fail(500, "no such mapping '" + p.get("id") + "'");
                }
                if (multi.containsKey("map")) {
                    c.mappings.put(p.get("id"), new ArrayList<>(multi.get("map"))); // PUT replaces the whole map
                }
                return Answer.ok(null);
            case "DELETE /cluster/mapping/pci/{id}":
                return c.mappings.remove(p.get("id")) == null ? Answer.fail(500, "no such mapping '" + p.get("id") + "'")
                        : Answer.ok(null);
            case "POST /nodes/{node}/qemu": {
                int id = Integer.parseInt(p.get("vmid"));
                if (c.vms.containsKey(id)) {
                    return Answer.fail(500, "unable to create VM " + id + ": config file already exists");
                }
                SimCluster.Vm vm = new SimCluster.Vm(id, p.get("node"));
                p.forEach((k, v) -> {
                    if (!List.of("node", "vmid", "start").contains(k)) {
                        vm.config.put(k, v);
                    }
                });
                c.vms.put(id, vm);
                return task(p.get("node"), "qmcreate", String.valueOf(id), () -> { });
            }
            case "GET /nodes/{node}/qemu/{vmid}/rrddata": {
                SimCluster.Vm vm = vm(p);
                if (vm == null) {
                    return Answer.fail(500, "VM " + p.get("vmid") + " does not exist");
                }
                List<Object> points = new ArrayList<>();
                long now = System.currentTimeMillis() / 1000 / 60 * 60;
                for (int i = 70; i > 0; i--) {
                    points.add(Map.of("time", now - i * 60L, "cpu", 0.2 + 0.1 * Math.sin(i / 5.0), "maxmem",
                            Long.parseLong(vm.config.getOrDefault("memory", "512")) * 1048576, "netin", 1000.0 * i));
                }
                return Answer.ok(points);
            }
            case "GET /nodes/{node}/storage":
                return Answer.ok(List.of(Map.of("storage", "local", "type", "dir", "content", "iso,vztmpl,backup",
                        "total", 100L << 30, "used", 20L << 30, "avail", 80L << 30, "active", 1, "enabled", 1),
                        Map.of("storage", "local-zfs", "type", "zfspool", "content", "images,rootdir",
                                "total", 2L << 40, "used", 1L << 40, "avail", 1L << 40, "active", 1, "enabled", 1)));
            case "GET /nodes/{node}/storage/{storage}/content":
                return Answer.ok("local".equals(p.get("storage"))
                        ? List.of(Map.of("volid", "local:iso/ubuntu-24.04-live-server-amd64.iso", "content", "iso",
                                "size", 2_800_000_000L, "format", "iso"))
                        : List.of(Map.of("volid", "local-zfs:base-9000-disk-0", "content", "images", "size", 34359738368L,
                                "format", "raw", "vmid", 9000)));
            case "POST /nodes/{node}/qemu/{vmid}/agent/ping":
                return running(p) ? Answer.ok(Map.of()) : Answer.fail(500, "QEMU guest agent is not running");
            case "POST /nodes/{node}/qemu/{vmid}/agent/exec":
                if (!running(p)) {
                    return Answer.fail(500, "QEMU guest agent is not running");
                }
                return Answer.ok(Map.of("pid", 4242));
            case "GET /nodes/{node}/qemu/{vmid}/agent/exec-status":
                return !running(p) ? Answer.fail(500, "QEMU guest agent is not running")
                        : Answer.ok(Map.of("exited", 1, "exitcode", 0, "out-data",
                                "0, NVIDIA GeForce RTX 4090, 61, 287.45\n"));
            default:
                return Answer.fail(501, "Method '" + method + " " + path + "' not implemented in the simulator");
        }
    }

    private boolean running(Map<String, String> p) {
        SimCluster.Vm vm = vm(p);
        return vm != null && vm.status.equals("running");
    }

    private Answer clone(Map<String, String> p) {
        SimCluster.Vm source = vm(p);
        if (source == null) {
            return Answer.fail(500, "VM " + p.get("vmid") + " does not exist");
        }
        int newid = Integer.parseInt(p.get("newid"));
        if (c.raceNextClone) {
            c.raceNextClone = false;
            SimCluster.Vm other = new SimCluster.Vm(newid, source.node);
            other.config.put("name", "someone-else");
            c.vms.put(newid, other);
        }
        if (c.vms.containsKey(newid)) {
            return Answer.fail(500, "unable to create VM " + newid + ": config file already exists");
        }
        String target = p.getOrDefault("target", source.node);
        SimCluster.Vm clone = new SimCluster.Vm(newid, target);
        clone.config.putAll(source.config);
        clone.config.remove("template");
        clone.config.put("name", p.getOrDefault("name", "Copy-of-VM-" + source.config.getOrDefault("name", "")));
        c.vms.put(newid, clone); // PVE locks the new id at once; the clone becomes usable when the task ends
        clone.status = "stopped";
        return task(source.node, "qmclone", String.valueOf(source.vmid), () -> { });
    }

    private Answer task(String node, String type, String id, Runnable effect) {
        long now = System.currentTimeMillis();
        String upid = String.format("UPID:%s:%08X:%08X:%08X:%s:%s:root@pam!gpuforge:", node,
                (int) (Math.abs(now) % 0x7fffffff), (int) (now / 10 % 0x7fffffff), now / 1000, type, id);
        SimCluster.Task t = new SimCluster.Task(upid, node, now, c.taskMillis, effect);
        t.log.add("starting " + type + " " + id + " on " + node);
        t.log.add("progress 50%");
        c.tasks.put(upid, t);
        return Answer.ok(upid);
    }

    private SimCluster.Node node(String name) {
        return c.nodes.stream().filter(n -> n.name().equals(name)).findFirst().orElse(null);
    }

    private SimCluster.Vm vm(Map<String, String> p) {
        SimCluster.Vm vm = c.vms.get(Integer.parseInt(p.get("vmid")));
        return vm != null && vm.node.equals(p.get("node")) ? vm : null;
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
            for (SimCluster.Vm v : c.vms.values()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("id", "qemu/" + v.vmid);
                m.put("type", "qemu");
                m.put("vmid", v.vmid);
                m.put("node", v.node);
                m.put("name", v.config.getOrDefault("name", "vm" + v.vmid));
                m.put("status", v.status);
                m.put("template", v.template ? 1 : 0);
                m.put("maxmem", Long.parseLong(v.config.getOrDefault("memory", "512")) * 1024 * 1024);
                m.put("maxcpu", Integer.parseInt(v.config.getOrDefault("cores", "1")));
                out.add(m);
            }
        }
        return out;
    }

    private List<Object> nodes() {
        List<Object> out = new ArrayList<>();
        for (SimCluster.Node n : c.nodes) {
            out.add(Map.of("node", n.name(), "status", "online", "maxcpu", 32, "maxmem", 137438953472L,
                    "ssl_fingerprint", "00:11:22:33"));
        }
        return out;
    }

    private List<Object> pci(SimCluster.Node n, String classBlacklist) {
        List<Object> out = new ArrayList<>();
        // PVE hides bridges (class 06) unless the blacklist is sent empty
        boolean hideBridges = classBlacklist == null;
        for (SimCluster.Pci d : n.pci()) {
            if (hideBridges && d.classCode().startsWith("0x06")) {
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", d.id());
            m.put("class", d.classCode());
            m.put("vendor", d.vendor());
            m.put("device", d.device());
            m.put("vendor_name", d.vendorName());
            m.put("device_name", d.deviceName());
            m.put("iommugroup", n.iommu() ? d.group() : -1);
            out.add(m);
        }
        return out;
    }

    private List<Object> mappings() {
        List<Object> out = new ArrayList<>();
        c.mappings.forEach((id, map) -> out.add(Map.of("id", id, "type", "pci", "map", map)));
        return out;
    }

    private List<Object> qemu(String node) {
        List<Object> out = new ArrayList<>();
        for (SimCluster.Vm v : c.vms.values()) {
            if (v.node.equals(node)) {
                out.add(Map.of("vmid", v.vmid, "name", v.config.getOrDefault("name", "vm" + v.vmid), "status", v.status,
                        "template", v.template ? 1 : 0));
            }
        }
        return out;
    }
}
