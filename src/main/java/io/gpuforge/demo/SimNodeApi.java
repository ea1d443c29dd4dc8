package io.gpuforge.demo;

import io.gpuforge.demo.SimApi.Answer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulated node endpoints: status and reboot, PCI devices, storages and their content, a download
 * into a storage ({@code download-url}: refused like PVE for a storage that does not hold that content, a
 * file name with the wrong extension, an existing file, a checksum without its algorithm), and the node's RRD.
 */
final class SimNodeApi {

    private final SimCluster c;
    private final SimDisks disks;

    SimNodeApi(SimCluster c) {
        this.c = c;
        this.disks = new SimDisks(c);
    }

    Answer answer(String call, Map<String, String> p, SimApi.Caller who) {
        SimCluster.Node node = c.node(p.get("node"));
        if (node == null) {
            return Answer.fail(500, "no such node '" + p.get("node") + "'");
        }
        switch (call) {
            case "GET /nodes/{node}/status":
                return Answer.ok(Map.of("uptime", 86400, "cpu", 0.12, "kversion", "Linux 6.8.12-4-pve #1 SMP PREEMPT_DYNAMIC",
                        "pveversion", "pve-manager/8.4.1/2a5fa54a8503f96d", "memory", Map.of("total", 137438953472L,
                                "used", 34359738368L, "free", 103079215104L),
                        "cpuinfo", Map.of("cpus", 32, "cores", 16, "sockets", 1, "model", "AMD Ryzen 9 7950X 16-Core Processor"),
                        "loadavg", List.of("0.52", "0.61", "0.58")));
            case "POST /nodes/{node}/status":
                return Answer.ok(c.task(node.name(), "srv" + p.get("command"), "", who.user(), () -> { }));
            case "GET /nodes/{node}/hardware/pci":
                return Answer.ok(pci(node, p.get("pci-class-blacklist")));
            case "GET /nodes/{node}/storage": {
                List<Object> out = new ArrayList<>();
                for (SimCluster.Storage s : SimCluster.STORAGES) {
                    boolean dir = s.type().equals("dir");
                    out.add(Map.of("storage", s.name(), "type", s.type(), "content", String.join(",", s.content()),
                            "total", dir ? 100L << 30 : 2L << 40, "used", dir ? 20L << 30 : 1L << 40,
                            "avail", dir ? 80L << 30 : 1L << 40, "active", 1, "enabled", 1));
                }
                return Answer.ok(out);
            }
            case "GET /nodes/{node}/storage/{storage}/content":
                return content(node, p);
            case "POST /nodes/{node}/storage/{storage}/download-url":
                return download(node, p, who);
            case "GET /nodes/{node}/network":
                return Answer.ok(SimVmChecks.network(p.get("type")));
            case "GET /nodes/{node}/rrddata":
                return Answer.ok(rrd(p.get("timeframe"), "MAX".equals(p.get("cf"))));
            default:
                return Answer.fail(501, "Method '" + call + "' not implemented in the simulator");
        }
    }

    private Answer content(SimCluster.Node node, Map<String, String> p) {
        String storage = p.get("storage");
        if (SimCluster.storage(storage) == null) {
            return Answer.fail(500, "storage '" + storage + "' does not exist");
        }
        List<Object> out = new ArrayList<>();
        for (SimCluster.Volume v : c.files.getOrDefault(node.name() + "/" + storage, List.of())) {
            if (p.get("content") == null || p.get("content").equals(v.content())) {
                out.add(Map.of("volid", v.volid(), "content", v.content(), "size", v.size(),
                        "format", v.content().equals("iso") ? "iso" : v.volid().substring(v.volid().lastIndexOf('.') + 1)));
            }
        }
        for (Map<String, Object> img : disks.images(node.name())) {
            boolean here = ((String) img.get("volid")).startsWith(storage + ":");
            boolean wanted = p.get("content") == null || p.get("content").equals("images");
            boolean ofVm = !p.containsKey("vmid") || p.get("vmid").equals(String.valueOf(img.get("vmid")));
            if (here && wanted && ofVm) {
                out.add(img);
            }
        }
        return Answer.ok(out);
    }

    private Answer download(SimCluster.Node node, Map<String, String> p, SimApi.Caller who) {
        String storage = p.get("storage");
        SimCluster.Storage s = SimCluster.storage(storage);
        if (s == null) {
            return Answer.fail(500, "storage '" + storage + "' does not exist");
        }
        String content = p.get("content");
        if (!s.content().contains(content)) {
            return Answer.fail(500, "storage '" + storage + "' is not configured for content-type '" + content + "'");
        }
        if (p.containsKey("checksum") && !p.containsKey("checksum-algorithm")) {
            return Answer.invalid(Map.of("checksum-algorithm", "missing property - 'checksum' requires this property"));
        }
        if (!p.get("url").matches("https?://[^\\s/]+/.*")) {
            return Answer.invalid(Map.of("url", "invalid format - not an http(s) URL"));
        }
        String file = p.get("filename");
        String ext = content.equals("iso") ? "\\.(iso|img)" : content.equals("import") ? "\\.(ova|ovf|qcow2|raw|vmdk)"
                : "\\.tar\\.(gz|xz|zst)";
        if (file.contains("/") || !file.matches("[A-Za-z0-9._+-]+" + ext)) {
            return Answer.invalid(Map.of("filename", "invalid filename or wrong extension for content '" + content + "'"));
        }
        String volid = storage + ":" + content + "/" + file;
        List<SimCluster.Volume> here = c.files.computeIfAbsent(node.name() + "/" + storage, k -> new ArrayList<>());
        if (here.stream().anyMatch(v -> v.volid().equals(volid))) {
            return Answer.fail(500, "refusing to override existing file '" + file + "'");
        }
        String upid = c.task(node.name(), "download", storage, who.user(),
                () -> here.add(new SimCluster.Volume(volid, content, 2_361_393_152L)));
        SimTask t = c.tasks.get(upid);
        t.log.add("downloading " + p.get("url") + " to /var/lib/vz/template/" + content + "/" + file);
        if (p.containsKey("checksum")) {
            t.log.add("calculating checksum (" + p.get("checksum-algorithm") + ")... OK, checksum verified");
        }
        return Answer.ok(upid);
    }

    private static List<Object> rrd(String timeframe, boolean max) {
        int step = timeframe.equals("hour") ? 60 : timeframe.equals("day") ? 1800 : timeframe.equals("week") ? 10800
                : timeframe.equals("month") ? 43200 : 604800;
        long now = System.currentTimeMillis() / 1000 / step * step;
        List<Object> out = new ArrayList<>();
        for (int i = 70; i > 0; i--) {
            double wave = 0.1 * Math.sin(i / 5.0);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("time", now - (long) i * step);
            m.put("cpu", (max ? 0.35 : 0.2) + wave);
            m.put("maxcpu", 32);
            m.put("memtotal", 137438953472L);
            m.put("memused", 34359738368L + (long) (wave * (1L << 30)));
            m.put("loadavg", 0.6 + wave);
            m.put("iowait", 0.01);
            m.put("netin", 12000.0 * i);
            m.put("netout", 8000.0 * i);
            m.put("rootused", 12L << 30);
            m.put("roottotal", 100L << 30);
            out.add(m);
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
            if (!d.subsystemVendor().isEmpty()) {
                m.put("subsystem_vendor", d.subsystemVendor());
                m.put("subsystem_device", d.subsystemDevice());
            }
            m.put("iommugroup", n.iommu() ? d.group() : -1);
            out.add(m);
        }
        return out;
    }
}
