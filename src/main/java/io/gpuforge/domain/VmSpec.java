package io.gpuforge.domain;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A VM to create: resources, disk, network, optional cloud-init seed, and the PCI functions passed through.
 *
 * @param accelerated KVM when true, else QEMU's TCG emulation
 * @param network a libvirt network name ("default") for the virtio NIC, or {@link #USER_NETWORK} for QEMU's
 *                user-mode networking (no host network needed)
 */
public record VmSpec(String name, int vcpus, int memoryMiB, Optional<String> diskPath, String network,
                     Optional<String> cloudInitSeed, List<PciAddress> hostDevices, boolean uefi, boolean accelerated) {

    public static final String USER_NETWORK = "user-mode";

    public VmSpec {
        Objects.requireNonNull(name);
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9_.+-]{0,62}")) {
            throw new IllegalArgumentException("VM name must be letters, digits and _.+- (at most 63): '" + name + "'");
        }
        if (vcpus < 1 || memoryMiB < 64) {
            throw new IllegalArgumentException("a VM needs at least 1 vCPU and 64 MiB");
        }
        hostDevices = hostDevices.stream().sorted().distinct().toList();
    }
}
