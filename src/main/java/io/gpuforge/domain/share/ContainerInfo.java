package io.gpuforge.domain.share;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A Proxmox LXC container as GPU sharing sees it: where it runs, its state, its {@code devN} entries by index and its
 * raw {@code lxc.*} lines (the old way of giving it devices), with the digest its configuration had.
 */
public record ContainerInfo(String node, int vmid, String name, String status, Map<Integer, ContainerDevice> devices,
                            List<RawLxc> lxc, Optional<String> digest) {

    public ContainerInfo {
        Objects.requireNonNull(node);
        Objects.requireNonNull(name);
        Objects.requireNonNull(status);
        devices = java.util.Collections.unmodifiableMap(new TreeMap<>(devices));
        lxc = List.copyOf(lxc);
        Objects.requireNonNull(digest);
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
