package io.gpuforge.domain.vm;

import java.util.Objects;
import java.util.Optional;

/**
 * A cloud image a VM's disk starts from: where it is downloaded from, the file name it gets on the target
 * (Proxmox VE wants {@code .qcow2}, {@code .raw}… for content {@code import}), and its SHA-256 when known.
 */
public record CloudImage(String url, String fileName, Optional<String> sha256) {

    public CloudImage {
        Objects.requireNonNull(url);
        Objects.requireNonNull(fileName);
        Objects.requireNonNull(sha256);
        if (!url.startsWith("https://") && !url.startsWith("http://")) {
            throw new IllegalArgumentException("a cloud image is downloaded over http(s), not from '" + url + "'");
        }
        if (!fileName.matches("[A-Za-z0-9._+-]+\\.(qcow2|raw|img|vmdk)")) {
            throw new IllegalArgumentException("a cloud image's file name is letters, digits and ._+- ending in .qcow2,"
                    + " .raw, .img or .vmdk, not '" + fileName + "'");
        }
        if (sha256.isPresent() && !sha256.get().matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("a SHA-256 is 64 hex digits, not '" + sha256.get() + "'");
        }
    }
}
