package io.gpuforge.domain.vm;

import java.util.List;
import java.util.Objects;

/**
 * A place for disks and images on a node: a Proxmox VE storage ({@code local-zfs}, content {@code images};
 * {@code local}, content {@code iso,import,snippets}) or a libvirt storage pool ({@code default}, content
 * {@code images}).
 */
public record StorageInfo(String name, String type, List<String> content, long totalBytes, long availableBytes,
                          boolean active) {

    public static final String IMAGES = "images";
    public static final String IMPORT = "import";
    public static final String ISO = "iso";
    public static final String SNIPPETS = "snippets";

    public StorageInfo {
        Objects.requireNonNull(name);
        Objects.requireNonNull(type);
        content = List.copyOf(content);
    }

    public boolean holds(String kind) {
        return content.contains(kind);
    }
}
