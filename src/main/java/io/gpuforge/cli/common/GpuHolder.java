package io.gpuforge.cli.common;

import io.gpuforge.domain.telemetry.FleetGpu;
import java.util.LinkedHashMap;
import java.util.Map;

/** Who holds a GPU, as every command says it: a VM, the containers that share it, free, or unknown. */
public final class GpuHolder {

    private GpuHolder() {
    }

    /** In words: "in VM 101 (train-01)", "shared by CT 201", "free", "holder unknown". */
    public static String text(FleetGpu x) {
        if (x.vmRef().isPresent()) {
            return "in VM " + x.vmRef().get().id() + x.vm().map(n -> " (" + n + ")").orElse("");
        }
        if (!x.containers().isEmpty()) {
            return "shared by " + String.join(", ", x.containers().stream().map(c -> "CT " + c.vmid()).toList());
        }
        return x.availability() == FleetGpu.Availability.UNKNOWN ? "holder unknown" : "free";
    }

    /** As JSON: {@code {"kind": "vm", "vm": "101", "name": …}}, {@code containers}, {@code free} or {@code unknown}. */
    public static Map<String, Object> json(FleetGpu x) {
        Map<String, Object> h = new LinkedHashMap<>();
        if (x.vmRef().isPresent()) {
            h.put("kind", "vm");
            h.put("vm", x.vmRef().get().id());
            h.put("name", x.vm().orElse(null));
        } else if (!x.containers().isEmpty()) {
            h.put("kind", "containers");
            h.put("containers", x.containers().stream().map(c -> c.vmid()).toList());
        } else {
            h.put("kind", x.availability() == FleetGpu.Availability.UNKNOWN ? "unknown" : "free");
        }
        return h;
    }
}
