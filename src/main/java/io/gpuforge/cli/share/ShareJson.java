package io.gpuforge.cli.share;

import io.gpuforge.cli.common.EnglishWords;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.ContainerInfo;
import io.gpuforge.domain.share.ContainerUse;
import io.gpuforge.domain.share.GpuShare;
import io.gpuforge.domain.share.ShareReadiness;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The JSON of the share and ct commands. */
final class ShareJson {

    private ShareJson() {
    }

    static Map<String, Object> share(GpuShare s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("node", s.node());
        m.put("gpu", s.gpu().orElse(null));
        m.put("name", s.name().orElse(null));
        m.put("driver", s.driver().orElse(null));
        m.put("containers", s.containers().stream().map(ShareJson::use).toList());
        return m;
    }

    private static Map<String, Object> use(ContainerUse u) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("vmid", u.vmid());
        m.put("name", u.name());
        m.put("status", u.status());
        m.put("nodes", u.nodes());
        m.put("how", u.legacy() ? "legacy-lxc-lines" : "devN");
        return m;
    }

    static Map<String, Object> readiness(ShareReadiness r, List<String> explained) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("gpu", r.gpu().toString());
        m.put("way", r.way().json());
        m.put("verdict", r.verdict().kind().json());
        m.put("vendor", r.vendor().orElse(null));
        m.put("host_driver", r.hostDriver().orElse(null));
        m.put("driver_version", r.driverVersion().orElse(null));
        m.put("proxmox_version", r.proxmoxVersion().orElse(null));
        List<Map<String, Object>> checks = new java.util.ArrayList<>();
        for (int i = 0; i < r.checks().size(); i++) {
            Check c = r.checks().get(i);
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("id", c.id());
            x.put("status", c.status().name().toLowerCase(Locale.ROOT));
            x.put("text", explained.get(i));
            checks.add(x);
        }
        m.put("checks", checks);
        m.put("devices", r.devices().stream().map(ContainerDevice::value).toList());
        return m;
    }

    static Map<String, Object> plan(PassthroughPlan p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", p.id());
        m.put("host", p.host());
        m.put("edits", p.edits().stream().map(e -> Map.of("path", e.path(), "diff", e.diff())).toList());
        m.put("commands", p.commands());
        m.put("container_devices", p.vmChanges().stream().map(PassthroughPlan.VmChange::snippet).toList());
        m.put("notes", EnglishWords.of(p.notes()));
        return m;
    }

    static Map<String, Object> container(ContainerInfo c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("node", c.node());
        m.put("vmid", c.vmid());
        m.put("name", c.name());
        m.put("status", c.status());
        Map<String, String> devices = new LinkedHashMap<>();
        c.devices().forEach((i, d) -> devices.put("dev" + i, d.value()));
        m.put("devices", devices);
        m.put("lxc", c.lxc().stream().map(l -> List.of(l.key(), l.value())).toList());
        return m;
    }
}
