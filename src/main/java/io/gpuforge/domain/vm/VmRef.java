package io.gpuforge.domain.vm;

import java.util.Objects;

/**
 * Which VM, on which node of a connection: a Proxmox VMID on its node, or a libvirt domain name on its host.
 * Stable across refreshes, so views keep their selection.
 */
public record VmRef(String node, String id) {

    public VmRef {
        Objects.requireNonNull(node);
        Objects.requireNonNull(id);
        if (id.isBlank()) {
            throw new IllegalArgumentException("a VM reference needs an id");
        }
    }

    @Override
    public String toString() {
        return id + "@" + node;
    }
}
