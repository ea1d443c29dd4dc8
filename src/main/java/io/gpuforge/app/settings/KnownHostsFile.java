package io.gpuforge.app.settings;

/**
 * Where a host key the user accepts is remembered. Both files are always read, by the window and by the command
 * line alike; this only says which one is written.
 */
public enum KnownHostsFile {
    /** OpenSSH's {@code ~/.ssh/known_hosts}: {@code ssh} then trusts the host too (the default). */
    OPENSSH,
    /** GPUForge's own file in its configuration directory: OpenSSH's file is left alone. */
    GPUFORGE
}
