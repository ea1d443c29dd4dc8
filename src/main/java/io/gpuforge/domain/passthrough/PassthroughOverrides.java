package io.gpuforge.domain.passthrough;


/** Options a user names explicitly to go past a safety rule. */
public record PassthroughOverrides(boolean allowSharedGroup, boolean allowHostCritical) {
    public static PassthroughOverrides none() {
        return new PassthroughOverrides(false, false);
    }
}
