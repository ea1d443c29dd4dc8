package io.gpuforge.domain.diagnose;

/**
 * Who wrote a log line GPUForge holds as evidence: the host (read by GPUForge from the hypervisor or the host's own
 * logs), the guest (through its agent: whatever runs inside can write there, root in the guest writing a fake kernel
 * line included), or the user (a file or a paste, whose first author nobody knows). A change on the host follows
 * only the host's own lines.
 */
public enum Origin {
    HOST("host"),
    GUEST("guest"),
    PASTED("pasted");

    private final String id;

    Origin(String id) {
        this.id = id;
    }

    /** The name in JSON and in the window. */
    public String id() {
        return id;
    }
}
