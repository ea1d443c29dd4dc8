package io.gpuforge.cli.common;

import io.gpuforge.domain.telemetry.FleetGpu;
import java.util.LinkedHashMap;
import java.util.Map;

/** Who holds a GPU, as every command says it: a VM, the containers that share it, free, or unknown. */
public final class GpuHolder {

    private GpuHolder() {
    }

    /**
     * In words: "in VM 101 (train-01)", "in VM 121 (llm-70b), also set up in VM 122 (render-02)", "shared by CT 201",
     * "free", "holder unknown".
     */
    public static String text(FleetGpu x) {
        if (x.vmRef().isPresent()) {
            String also = x.alsoIn().isEmpty() ? "" : ", also set up in " + String.join(", ", x.alsoIn().stream()
                    .map(v -> "VM " + v.ref().id() + " (" + v.name() + ")").toList());
            return "in VM " + x.vmRef().get().id() + x.vm().map(n -> " (" + n + ")").orElse("") + also;
        }
        if (!x.containers().isEmpty()) {
            return "shared by " + String.join(", ", x.containers().stream().map(c -> "CT " + c.vmid()).toList());
        }
        return x.availability() == FleetGpu.Availability.UNKNOWN ? "holder unknown" : "free";
    }

    /**
     * As JSON: {@code {"kind": "vm", "vm": "101", "name": …, "also_in": [{"vm": "122", "name": …}]}},
     * {@code containers}, {@code free} or {@code unknown}.
     */
    public static Map<String, Object> json(FleetGpu x) {
        Map<String, Object> h = new LinkedHashMap<>();
        if (x.vmRef().isPresent()) {
            h.put("kind", "vm");
            h.put("vm", x.vmRef().get().id());
            h.put("name", x.vm().orElse(null));
            h.put("also_in", x.alsoIn().stream().map(v -> Map.of("vm", v.ref().id(), "name", v.name())).toList());
        } else if (!x.containers().isEmpty()) {
            h.put("kind", "containers");
            h.put("containers", x.containers().stream().map(c -> c.vmid()).toList());
        } else {
            h.put("kind", x.availability() == FleetGpu.Availability.UNKNOWN ? "unknown" : "free");
        }
        return h;
    }
}
