package io.gpuforge.domain.vm;

import java.util.Map;
import java.util.Objects;

/**
 * A VM's configuration as read, with the version to write against: the parsed {@link VmDetails}, the raw
 * settings (Proxmox keys; empty for libvirt) and the document as the backend keeps it (PVE's
 * {@code key: value} lines, libvirt's domain XML).
 */
public record VmConfig(VmRef ref, String version, VmDetails details, Map<String, String> settings, String document) {

    public VmConfig {
        Objects.requireNonNull(ref);
        Objects.requireNonNull(version);
        Objects.requireNonNull(details);
        Objects.requireNonNull(document);
        settings = Map.copyOf(settings);
    }
}
