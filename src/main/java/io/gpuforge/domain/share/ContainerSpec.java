package io.gpuforge.domain.share;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A new container: its id and hostname, the {@code vztmpl} volume it is made from, its size, network and the
 * {@code devN} entries it gets (a shared GPU's nodes), unprivileged as Proxmox recommends.
 */
public record ContainerSpec(int vmid, String hostname, String template, int cores, int memoryMiB, String storage,
                            int diskGiB, String bridge, List<ContainerDevice> devices, Optional<String> sshPublicKeys,
                            boolean start) {

    public ContainerSpec {
        Objects.requireNonNull(hostname);
        Objects.requireNonNull(template);
        Objects.requireNonNull(storage);
        Objects.requireNonNull(bridge);
        devices = List.copyOf(devices);
        Objects.requireNonNull(sshPublicKeys);
        if (!hostname.matches("[A-Za-z0-9][A-Za-z0-9.-]{0,62}")) {
            throw new IllegalArgumentException("not a host name: " + hostname);
        }
        if (!template.matches("[A-Za-z0-9._-]+:vztmpl/[^/\\s]+")) {
            throw new IllegalArgumentException("not a container template volume (STORAGE:vztmpl/FILE): " + template);
        }
        // both go into Proxmox VE's comma-separated properties (rootfs=STORAGE:SIZE, net0=…,bridge=BRIDGE,…): a comma
        // or an equals sign would add options of its own, so only what the API's formats allow is taken
        if (!storage.matches("(?i)[a-z][a-z0-9._-]*[a-z0-9]")) {
            throw new IllegalArgumentException("not a storage id (letters, digits, '-', '_', '.'; a letter first): "
                    + storage);
        }
        if (!bridge.matches("[A-Za-z0-9_.-]{1,15}")) {
            throw new IllegalArgumentException("not a bridge name (at most 15 letters, digits, '-', '_', '.'): "
                    + bridge);
        }
    }
}
