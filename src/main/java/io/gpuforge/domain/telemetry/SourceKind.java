package io.gpuforge.domain.telemetry;

import java.util.Locale;

/** Where GPU readings come from; the label is what the window and the CLI show next to a series. */
public enum SourceKind {
    NVML("host NVML"),
    NVIDIA_SMI("nvidia-smi"),
    GUEST_AGENT("guest agent inside VM"),
    HWMON("amdgpu hwmon"),
    DCGM_EXPORTER("DCGM exporter"),
    NVIDIA_GPU_EXPORTER("nvidia_gpu_exporter"),
    SIMULATED("simulated (Demo lab)");

    private final String label;

    SourceKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public String json() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
