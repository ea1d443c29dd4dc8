package io.gpuforge.demo;

import io.gpuforge.demo.SimApi.Answer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The simulated container endpoints under {@code /nodes/{node}/lxc}, as {@code pct} behaves: list, create from a
 * {@code vztmpl} volume (a task), configuration with digest and raw {@code lxc} pairs, {@code devN} changes (refused
 * on a running container, whose devices change only at a start), start (refused when a {@code devN} names a device
 * node the host does not have), shutdown, stop and delete (refused while running).
 */
final class SimLxcApi {

    private static final Set<String> NOT_CONFIG = Set.of("node", "vmid", "digest", "delete", "start", "password",
            "ssh-public-keys", "ostemplate");

    private final SimCluster c;

    SimLxcApi(SimCluster c) {
        this.c = c;
    }

    Answer answer(String method, String path, Map<String, String> p, SimApi.Caller who) {
        if (path.equals("/nodes/{node}/lxc")) {
            return method.equals("GET") ? Answer.ok(list(p.get("node"))) : create(p, who);
        }
        SimContainers.Ct ct = c.containers.byId.get(Integer.parseInt(p.get("vmid")));
        if (ct != null) {
            c.containers.synced(ct);
        }
        if (ct == null || !ct.node.equals(p.get("node"))) {
            return Answer.fail(500, "Configuration file 'nodes/" + p.get("node") + "/lxc/" + p.get("vmid")
                    + ".conf' does not exist");
        }
        switch (method + " " + path) {
            case "GET /nodes/{node}/lxc/{vmid}/config": {
                Map<String, Object> cfg = new LinkedHashMap<>(ct.config);
                if (!ct.lxc.isEmpty()) {
                    cfg.put("lxc", ct.lxc);
                }
                cfg.put("digest", ct.digest());
                return Answer.ok(cfg);
            }
            case "PUT /nodes/{node}/lxc/{vmid}/config":
                return update(ct, p);
            case "GET /nodes/{node}/lxc/{vmid}/status/current":
                return Answer.ok(Map.of("vmid", ct.vmid, "status", ct.status, "name",
                        ct.config.getOrDefault("hostname", "CT" + ct.vmid), "type", "lxc"));
            case "POST /nodes/{node}/lxc/{vmid}/status/start":
                return task(ct, "vzstart", who, () -> {
                    for (Map.Entry<String, String> e : ct.config.entrySet()) {
                        if (e.getKey().matches("dev\\d+")) {
                            String dev = path(e.getValue());
                            if (!c.containers.devices(c, ct.node).contains(dev)) {
                                throw new IllegalStateException("startup for container '" + ct.vmid + "' failed:"
                                        + " Device " + dev + " does not exist");
                            }
                        }
                    }
                    ct.status = "running";
                });
            case "POST /nodes/{node}/lxc/{vmid}/status/shutdown":
                return task(ct, "vzshutdown", who, () -> ct.status = "stopped");
            case "POST /nodes/{node}/lxc/{vmid}/status/stop":
                return task(ct, "vzstop", who, () -> ct.status = "stopped");
            case "DELETE /nodes/{node}/lxc/{vmid}":
                if (ct.status.equals("running")) {
                    return Answer.fail(500, "CT " + ct.vmid + " is running - destroy failed");
                }
                return task(ct, "vzdestroy", who, () -> {
                    c.containers.byId.remove(ct.vmid);
                    c.containers.write(ct, false);
                });
            default:
                return Answer.fail(501, "Method '" + method + " " + path + "' not implemented");
        }
    }

    private Answer update(SimContainers.Ct ct, Map<String, String> p) {
        if (p.containsKey("digest") && !p.get("digest").equals(ct.digest())) {
            return Answer.fail(500, "detected modified configuration - file changed by other user? Try again.");
        }
        Map<String, String> set = new LinkedHashMap<>();
        p.forEach((k, v) -> {
            if (!NOT_CONFIG.contains(k)) {
                set.put(k, v);
            }
        });
        List<String> delete = p.containsKey("delete") ? List.of(p.get("delete").split("[,;\\s]+")) : List.of();
        boolean devices = set.keySet().stream().anyMatch(k -> k.matches("dev\\d+"))
                || delete.stream().anyMatch(k -> k.matches("dev\\d+"));
        if (devices && ct.status.equals("running")) {
            return Answer.fail(500, "unable to hotplug " + String.join(",", set.keySet()) + ": CT " + ct.vmid
                    + " is running; stop it first");
        }
        for (Map.Entry<String, String> e : set.entrySet()) {
            String bad = device(e.getKey(), e.getValue());
            if (bad != null) {
                return Answer.invalid(Map.of(e.getKey(), bad));
            }
        }
        delete.forEach(ct.config::remove);
        ct.config.putAll(set);
        c.containers.write(ct, true);
        return Answer.ok(null);
    }

    /** Why a {@code devN} value is refused (its path must be a device under /dev), or null. */
    private static String device(String key, String value) {
        if (!key.matches("dev\\d+")) {
            return null;
        }
        String path = path(value);
        return path.startsWith("/dev/") && !path.contains("..") ? null : "invalid format - " + path
                + " is not a device path";
    }

    /** The device path of a {@code devN} value ({@code [path=]PATH[,option=…]}). */
    private static String path(String value) {
        return value.split(",")[0].replaceFirst("^path=", "");
    }

    private Answer create(Map<String, String> p, SimApi.Caller who) {
        int vmid = Integer.parseInt(p.get("vmid"));
        String node = p.get("node");
        if (c.vms.containsKey(vmid) || c.containers.byId.containsKey(vmid)) {
            return Answer.fail(500, "CT " + vmid + " already exists on node '" + node + "'");
        }
        String template = p.get("ostemplate");
        boolean known = c.files.getOrDefault(node + "/local", List.of()).stream()
                .anyMatch(v -> v.volid().equals(template) && v.content().equals("vztmpl"));
        if (!known) {
            return Answer.fail(500, "volume '" + template + "' does not exist");
        }
        for (Map.Entry<String, String> e : p.entrySet()) {
            String bad = device(e.getKey(), e.getValue());
            if (bad != null) {
                return Answer.invalid(Map.of(e.getKey(), bad));
            }
        }
        SimContainers.Ct ct = new SimContainers.Ct(vmid, node);
        return task(ct, "vzcreate", who, () -> {
            p.forEach((k, v) -> {
                if (!NOT_CONFIG.contains(k)) {
                    ct.config.put(k, v);
                }
            });
            ct.config.putIfAbsent("arch", "amd64");
            ct.config.putIfAbsent("ostype", "debian");
            ct.config.putIfAbsent("rootfs", "local-zfs:subvol-" + vmid + "-disk-0,size=8G");
            c.containers.byId.put(vmid, ct);
            c.containers.write(ct, true);
            if ("1".equals(p.get("start"))) {
                ct.status = "running";
            }
        });
    }

    private Answer task(SimContainers.Ct ct, String type, SimApi.Caller who, Runnable effect) {
        return Answer.ok(c.task(ct.node, type, String.valueOf(ct.vmid), who.user(), effect));
    }

    private List<Object> list(String node) {
        List<Object> out = new ArrayList<>();
        for (SimContainers.Ct ct : c.containers.byId.values()) {
            c.containers.synced(ct);
            if (ct.node.equals(node)) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("vmid", ct.vmid);
                m.put("name", ct.config.getOrDefault("hostname", "CT" + ct.vmid));
                m.put("status", ct.status);
                m.put("type", "lxc");
                m.put("maxmem", Long.parseLong(ct.config.getOrDefault("memory", "512")) * 1024 * 1024);
                m.put("cpus", Integer.parseInt(ct.config.getOrDefault("cores", "1")));
                out.add(m);
            }
        }
        return out;
    }
}
