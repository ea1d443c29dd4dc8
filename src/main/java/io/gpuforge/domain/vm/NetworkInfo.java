package io.gpuforge.domain.vm;

import java.util.Objects;

/** Where a VM's NIC can connect: a Proxmox VE bridge ({@code vmbr0}) or a libvirt network ({@code default}). */
public record NetworkInfo(String name, String kind, boolean active) {

    public NetworkInfo {
        Objects.requireNonNull(name);
        Objects.requireNonNull(kind);
    }
}
