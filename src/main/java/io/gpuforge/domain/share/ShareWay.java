package io.gpuforge.domain.share;

import java.util.Locale;

/** How a GPU is shared; containers first, vGPU, SR-IOV and MIG later. */
public enum ShareWay {
    /** Proxmox LXC containers given the host GPU's device nodes ({@code devN}). */
    CONTAINERS;

    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }
}
