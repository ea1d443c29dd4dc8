package io.gpuforge.demo;

import io.gpuforge.demo.SimApi.Answer;
import io.gpuforge.demo.SimDisks.Refusal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The simulated VM endpoints under {@code /nodes/{node}/qemu}: list, configuration (with digest and pending
 * changes), create, clone, template, power actions, delete, RRD. Refuses what PVE refuses: a stale digest,
 * starting or cloning-linked from a non-template, deleting a running VM, converting a running VM, a hostpci
 * mapping that does not exist, a raw hostpci from anyone but root@pam.
 *
 * <p>On a running VM, PVE applies hot-pluggable keys at once and keeps the others (PCI devices, machine,
 * firmware, CPU, memory…) as pending until the next cold start; GET config shows them applied unless
 * {@code current=1}. The simulator does the same.
 */
final class SimVmApi {

    /** Keys a running VM takes only at its next start (PVE's default hotplug is network, disk, usb). */
    private static final Set<String> COLD = Set.of("machine", "bios", "cores", "sockets", "memory", "cpu", "vga",
            "efidisk0", "tpmstate0", "ostype", "agent", "balloon", "scsihw");
    private static final Set<String> NOT_CONFIG = Set.of("node", "vmid", "digest", "delete", "start");

    private final SimCluster c;
    private final SimDisks disks;

    SimVmApi(SimCluster c) {
        this.c = c;
        this.disks = new SimDisks(c);
    }

    Answer answer(String method, String path, Map<String, String> p, Map<String, List<String>> multi, SimApi.Caller who) {
        try {
            return dispatch(method, path, p, who);
        } catch (Refusal r) {
            return r.answer;
        }
    }

    private Answer dispatch(String method, String path, Map<String, String> p, SimApi.Caller who) {
        if (path.equals("/nodes/{node}/qemu")) {
            return method.equals("GET") ? Answer.ok(list(p.get("node"))) : create(p, who);
        }
        SimVm vm = vm(p);
        if (vm == null) {
            return Answer.fail(500, "Configuration file 'nodes/" + p.get("node") + "/qemu-server/" + p.get("vmid")
                    + ".conf' does not exist");
        }
        switch (method + " " + path) {
            case "GET /nodes/{node}/qemu/{vmid}/config": {
                Map<String, Object> cfg = new LinkedHashMap<>("1".equals(p.get("current")) ? vm.config : vm.withPending());
                cfg.put("digest", vm.digest());
                return Answer.ok(cfg);
            }
            case "PUT /nodes/{node}/qemu/{vmid}/config":
            case "POST /nodes/{node}/qemu/{vmid}/config":
                return update(vm, p, who);
            case "POST /nodes/{node}/qemu/{vmid}/clone":
                return clone(vm, p, who);
            case "PUT /nodes/{node}/qemu/{vmid}/cloudinit":
                vm.cloudInitDrives++; // PVE writes the drive from the configuration at once (a sync call: null)
                return Answer.ok(null);
            case "PUT /nodes/{node}/qemu/{vmid}/resize":
                return resize(vm, p, who);
            case "POST /nodes/{node}/qemu/{vmid}/template":
                if (vm.status.equals("running")) {
                    return Answer.fail(500, "you can't convert a VM to template if VM is running");
                }
                if (vm.template) {
                    return Answer.fail(500, "you can't convert a template to a template");
                }
                return task(vm.node, "qmtemplate", vm.vmid, who, () -> {
                    vm.template = true;
                    vm.config.put("template", "1");
                });
            case "DELETE /nodes/{node}/qemu/{vmid}":
                if (vm.status.equals("running")) {
                    return Answer.fail(500, "VM " + vm.vmid + " is running - destroy failed");
                }
                if ("1".equals(vm.config.get("protection"))) {
                    return Answer.fail(500, "can't remove VM " + vm.vmid + " - protection mode enabled");
                }
                return task(vm.node, "qmdestroy", vm.vmid, who, () -> {
                    c.vms.remove(vm.vmid);
                    c.processes.remove(vm.vmid);
                });
            case "POST /nodes/{node}/qemu/{vmid}/status/start":
            case "POST /nodes/{node}/qemu/{vmid}/status/stop":
            case "POST /nodes/{node}/qemu/{vmid}/status/shutdown":
            case "POST /nodes/{node}/qemu/{vmid}/status/reboot":
                return power(vm, path.substring(path.lastIndexOf('/') + 1), who);
            case "GET /nodes/{node}/qemu/{vmid}/status/current":
                return Answer.ok(Map.of("vmid", vm.vmid, "status", vm.status, "name", vm.config.getOrDefault("name", ""),
                        "qmpstatus", vm.status, "template", vm.template ? 1 : 0));
            case "GET /nodes/{node}/qemu/{vmid}/rrddata": {
                List<Object> points = new ArrayList<>();
                long now = System.currentTimeMillis() / 1000 / 60 * 60;
                for (int i = 70; i > 0; i--) {
                    points.add(Map.of("time", now - i * 60L, "cpu", 0.2 + 0.1 * Math.sin(i / 5.0), "maxmem",
                            memoryMiB(vm.config) * 1048576, "netin", 1000.0 * i));
                }
                return Answer.ok(points);
            }
            default:
                return Answer.fail(501, "Method '" + method + " " + path + "' not implemented in the simulator");
        }
    }

    private Answer update(SimVm vm, Map<String, String> p, SimApi.Caller who) {
        if (p.containsKey("digest") && !p.get("digest").equals(vm.digest())) {
            return Answer.fail(500, "detected modified configuration - file changed by other user? Try again.");
        }
        Map<String, String> asked = new LinkedHashMap<>();
        p.forEach((k, v) -> {
            if (!NOT_CONFIG.contains(k)) {
                asked.put(k, v);
            }
        });
        Map<String, String> changes = disks.prepare(vm, asked, who);
        boolean running = vm.status.equals("running");
        changes.forEach((k, v) -> {
            if (running && (COLD.contains(k) || k.startsWith("hostpci"))) {
                vm.pending.put(k, v);
            } else {
                vm.config.put(k, v);
            }
        });
        if (p.containsKey("delete")) {
            for (String k : p.get("delete").split("[,;\\s]+")) {
                if (running && (COLD.contains(k) || k.startsWith("hostpci"))) {
                    vm.pending.put(k, null);
                } else {
                    vm.config.remove(k);
                }
            }
        }
        return Answer.ok(null);
    }

    private Answer create(Map<String, String> p, SimApi.Caller who) {
        String node = p.get("node");
        if (c.node(node) == null) {
            return Answer.fail(500, "no such node '" + node + "'");
        }
        int id = Integer.parseInt(p.get("vmid"));
        Map<String, String> invalid = SimVmChecks.create(p);
        if (!invalid.isEmpty()) {
            return Answer.invalid(invalid);
        }
        if (c.raceNextCreate) {
            c.raceNextCreate = false;
            SimVm other = new SimVm(id, node);
            other.config.put("name", "someone-else");
            c.vms.put(id, other);
        }
        if (c.vms.containsKey(id)) {
            return Answer.fail(500, "unable to create VM " + id + ": config file already exists");
        }
        SimVm vm = new SimVm(id, node);
        Map<String, String> keys = new LinkedHashMap<>();
        p.forEach((k, v) -> {
            if (!NOT_CONFIG.contains(k)) {
                keys.put(k, v);
            }
        });
        vm.config.putAll(disks.prepare(vm, keys, who));
        c.vms.put(id, vm); // PVE writes the configuration at once; the task finishes the disks
        boolean start = "1".equals(p.get("start"));
        return task(node, "qmcreate", id, who, () -> {
            if (start) {
                vm.status = "running";
                vm.agentFromMillis = System.currentTimeMillis() + c.agentBootMillis;
            }
        });
    }

    /** PVE grows a disk ({@code +8G} or an absolute {@code 64G}); it never shrinks one. */
    private Answer resize(SimVm vm, Map<String, String> p, SimApi.Caller who) {
        if (p.containsKey("digest") && !p.get("digest").equals(vm.digest())) {
            return Answer.fail(500, "detected modified configuration - file changed by other user? Try again.");
        }
        String disk = p.get("disk");
        String value = vm.config.get(disk);
        if (value == null) {
            return Answer.fail(500, "disk '" + disk + "' does not exist");
        }
        String size = p.get("size");
        if (!size.matches("\\+?\\d+(\\.\\d+)?[KMGT]?")) {
            return Answer.invalid(Map.of("size", "value does not match the regex pattern"));
        }
        long now = SimDisks.sizeBytes(properties(value).getOrDefault("size", "0"));
        long asked = SimDisks.sizeBytes(size.replace("+", ""));
        long next = size.startsWith("+") ? now + asked : asked;
        if (next < now) {
            return Answer.fail(500, "unable to shrink disk size");
        }
        String grown = value.replaceAll(",size=[^,]*", "") + ",size=" + (next % (1L << 30) == 0 ? (next >> 30) + "G"
                : (next >> 20) + "M");
        return task(vm.node, "resize", vm.vmid, who, () -> vm.config.put(disk, grown));
    }

    private Answer clone(SimVm source, Map<String, String> p, SimApi.Caller who) {
        boolean full = "1".equals(p.getOrDefault("full", source.template ? "0" : "1"));
        if (!full && p.containsKey("storage")) {
            return Answer.fail(500, "parameter 'storage' not allowed for linked clones");
        }
        if (!full && !source.template) {
            return Answer.fail(500, "Linked clone feature is not supported for a VM that is not a template");
        }
        int newid = Integer.parseInt(p.get("newid"));
        if (c.raceNextClone) {
            c.raceNextClone = false;
            SimVm other = new SimVm(newid, source.node);
            other.config.put("name", "someone-else");
            c.vms.put(newid, other);
        }
        if (c.vms.containsKey(newid)) {
            return Answer.fail(500, "unable to create VM " + newid + ": config file already exists");
        }
        String target = p.getOrDefault("target", source.node);
        if (c.node(target) == null) {
            return Answer.fail(500, "no such node '" + target + "'");
        }
        SimVm clone = new SimVm(newid, target);
        source.config.forEach((k, v) -> clone.config.put(k, SimDisks.DISK_KEY.matcher(k).matches()
                && !v.contains("media=cdrom") ? cloneDisk(v, source.vmid, newid, p.get("storage")) : v));
        clone.config.remove("template");
        clone.config.put("name", p.getOrDefault("name", "Copy-of-VM-" + source.config.getOrDefault("name", "")));
        c.vms.put(newid, clone); // PVE locks the new id at once; the clone becomes usable when the task ends
        return task(source.node, "qmclone", source.vmid, who, () -> { });
    }

    private static String cloneDisk(String value, int from, int to, String storage) {
        String[] parts = value.split(",", 2);
        String volume = parts[0].replace("base-" + from + "-", "vm-" + to + "-").replace("vm-" + from + "-", "vm-" + to + "-");
        if (storage != null) {
            volume = storage + volume.substring(volume.indexOf(':'));
        }
        return volume + (parts.length > 1 ? "," + parts[1] : "");
    }

    private Answer power(SimVm vm, String action, SimApi.Caller who) {
        if (vm.template) {
            return Answer.fail(500, "you can't start a vm if it's a template");
        }
        SimCluster.StartFailure asked = action.equals("start") ? c.startFailures.get(vm.vmid) : null;
        // a failure fixed meanwhile (on the VM or its host) is no longer one
        SimCluster.StartFailure failure = asked != null && asked.fails().test(vm) ? asked : null;
        Answer started = task(vm.node, "qm" + action, vm.vmid, who, () -> {
            boolean running = vm.status.equals("running");
            switch (action) {
                case "start":
                    if (running) {
                        throw new IllegalStateException("VM " + vm.vmid + " already running");
                    }
                    if (failure != null) {
                        throw new IllegalStateException(failure.error());
                    }
                    vm.applyPending();
                    checkMappings(vm);
                    vm.status = "running";
                    vm.agentFromMillis = System.currentTimeMillis() + c.agentBootMillis;
                    break;
                case "reboot":
                    if (!running) {
                        throw new IllegalStateException("VM " + vm.vmid + " not running");
                    }
                    vm.applyPending();
                    vm.agentFromMillis = System.currentTimeMillis() + c.agentBootMillis;
                    break;
                case "shutdown":
                    if (!running) {
                        throw new IllegalStateException("VM " + vm.vmid + " not running");
                    }
                    vm.status = "stopped";
                    break;
                default:
                    vm.status = "stopped";
                    break;
            }
            if (!vm.status.equals("running")) {
                c.processes.remove(vm.vmid);
            }
        });
        if (failure != null) {
            c.tasks.get((String) started.data()).log.addAll(failure.log());
            long now = System.currentTimeMillis();
            failure.kernel().forEach(l -> c.kernelLines.add(new SimCluster.KernelLine(vm.node, now, l)));
        }
        return started;
    }

    /** At start PVE looks each mapping up for the VM's node. */
    private void checkMappings(SimVm vm) {
        vm.config.forEach((k, v) -> {
            String mapping = properties(v).get("mapping");
            if (k.startsWith("hostpci") && mapping != null && c.mappings.getOrDefault(mapping, List.of()).stream()
                    .noneMatch(e -> ("," + e + ",").contains(",node=" + vm.node + ","))) {
                throw new IllegalStateException("PCI device mapping not found for '" + mapping + "'");
            }
        });
    }

    private Answer task(String node, String type, int vmid, SimApi.Caller who, Runnable effect) {
        return Answer.ok(c.task(node, type, String.valueOf(vmid), who.user(), effect));
    }

    private List<Object> list(String node) {
        List<Object> out = new ArrayList<>();
        for (SimVm v : c.vms.values()) {
            if (v.node.equals(node)) {
                out.add(Map.of("vmid", v.vmid, "name", v.config.getOrDefault("name", "vm" + v.vmid), "status", v.status,
                        "template", v.template ? 1 : 0));
            }
        }
        return out;
    }

    private SimVm vm(Map<String, String> p) {
        SimVm vm = c.vms.get(Integer.parseInt(p.get("vmid")));
        return vm != null && vm.node.equals(p.get("node")) ? vm : null;
    }

    /** PVE 8 writes {@code memory: 4096} or {@code memory: current=4096}. */
    static long memoryMiB(Map<String, String> cfg) {
        String m = cfg.getOrDefault("memory", "512");
        return Long.parseLong(properties(m).getOrDefault("current", m.split(",")[0]));
    }

    /** A PVE property string {@code node=pve1,path=0000:01:00} as a map (parts without '=' left out). */
    static Map<String, String> properties(String s) {
        Map<String, String> out = new TreeMap<>();
        for (String part : s.split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                out.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
            }
        }
        return out;
    }
}
