package io.gpuforge.host.ssh;

/**
 * Decides about a host key never seen before (OpenSSH's first use). A changed key is never up to the
 * policy: it is always refused.
 */
@FunctionalInterface
public interface HostKeyPolicy {

    /** @return true to trust and remember the key */
    boolean acceptNewKey(String host, String keyType, String fingerprint);

    /** Refuse every unknown key (the default for scripts). */
    static HostKeyPolicy refuseUnknown() {
        return (h, t, f) -> false;
    }

    /** OpenSSH's {@code StrictHostKeyChecking=accept-new}. */
    static HostKeyPolicy acceptNew() {
        return (h, t, f) -> true;
    }
}
