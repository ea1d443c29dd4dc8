package io.gpuforge.domain.tasks;

import java.util.Objects;

/**
 * A long operation on a backend: a Proxmox task (its UPID) or a libvirt operation; {@code type} is what it does
 * ({@code qmstart}, {@code qmclone}, {@code start}) and {@code target} what it works on ({@code 101}, {@code web1}).
 */
public record TaskRef(String id, String node, String type, String target) {

    public TaskRef {
        Objects.requireNonNull(id);
        Objects.requireNonNull(node);
        Objects.requireNonNull(type);
        Objects.requireNonNull(target);
    }
}
