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
            default:
                return Answer.fail(501, "Method '" + method + " " + path + "' not implemented in the simulator");
        }
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
