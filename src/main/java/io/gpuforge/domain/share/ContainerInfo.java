package io.gpuforge.domain.share;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A Proxmox LXC container as GPU sharing sees it: where it runs, its state, its {@code devN} entries by index and its
 * raw {@code lxc.*} lines (the old way of giving it devices), with the digest its configuration had, and the rest of
 * its configuration by key ({@code cores}, {@code memory}, {@code rootfs}, {@code net0}…).
 */
public record ContainerInfo(String node, int vmid, String name, String status, Map<Integer, ContainerDevice> devices,
                            List<RawLxc> lxc, Optional<String> digest, Map<String, String> settings) {

    public ContainerInfo {
        Objects.requireNonNull(node);
        Objects.requireNonNull(name);
        Objects.requireNonNull(status);
        devices = java.util.Collections.unmodifiableMap(new TreeMap<>(devices));
        lxc = List.copyOf(lxc);
        Objects.requireNonNull(digest);
        settings = java.util.Collections.unmodifiableMap(new TreeMap<>(settings));
    }

    /** Without the rest of its configuration (a listing that reads only its devices). */
    public ContainerInfo(String node, int vmid, String name, String status, Map<Integer, ContainerDevice> devices,
                         List<RawLxc> lxc, Optional<String> digest) {
        this(node, vmid, name, status, devices, lxc, digest, Map.of());
    }

    public boolean running() {
        return status.equals("running");
    }

    /** The lowest {@code devN} index not in use. */
    public int nextDeviceIndex() {
        int i = 0;
        while (devices.containsKey(i)) {
            i++;
        }
        return i;
    }
}
