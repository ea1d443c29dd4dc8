package io.gpuforge.domain.vm;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import io.gpuforge.domain.pci.PciAddress;

/**
 * A VM to create: resources, disk, network, optional cloud-init seed, the PCI functions passed through, and what
 * both backends need to build it from a template ({@link VmOptions}: storage, disk size, cloud image, cloud-init,
 * CPU type, TPM, OS type, guest agent).
 *
 * @param diskPath    an existing disk to use: for libvirt a file, for Proxmox VE {@code STORAGE:GiB} (a new empty
 *                    disk) or a volume to import ({@code local:import/noble.qcow2})
 * @param network     a libvirt network name ({@code default}) or {@link #USER_NETWORK} for QEMU's user-mode
 *                    networking; on Proxmox VE the bridge ({@code vmbr0}; a libvirt name means {@code vmbr0})
 * @param cloudInitSeed a NoCloud seed image already made (libvirt), attached as a CD-ROM
 * @param accelerated KVM when true, else QEMU's TCG emulation
 */
public record VmSpec(String name, int vcpus, int memoryMiB, Optional<String> diskPath, String network,
                     Optional<String> cloudInitSeed, List<PciAddress> hostDevices, boolean uefi, boolean accelerated,
                     VmOptions options) {

    public static final String USER_NETWORK = "user-mode";

    public VmSpec {
        Objects.requireNonNull(name);
        Objects.requireNonNull(diskPath);
        Objects.requireNonNull(network);
        Objects.requireNonNull(cloudInitSeed);
        Objects.requireNonNull(options);
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9_.+-]{0,62}")) {
            throw new IllegalArgumentException("VM name must be letters, digits and _.+- (at most 63): '" + name + "'");
        }
        if (vcpus < 1 || memoryMiB < 64) {
            throw new IllegalArgumentException("a VM needs at least 1 vCPU and 64 MiB");
        }
        hostDevices = hostDevices.stream().sorted().distinct().toList();
    }

    /** A VM with the options' defaults (no storage chosen, no image, no cloud-init, {@code cpu: host}). */
    public VmSpec(String name, int vcpus, int memoryMiB, Optional<String> diskPath, String network,
                  Optional<String> cloudInitSeed, List<PciAddress> hostDevices, boolean uefi, boolean accelerated) {
        this(name, vcpus, memoryMiB, diskPath, network, cloudInitSeed, hostDevices, uefi, accelerated,
                VmOptions.defaults());
    }

    public VmSpec withOptions(VmOptions o) {
        return new VmSpec(name, vcpus, memoryMiB, diskPath, network, cloudInitSeed, hostDevices, uefi, accelerated, o);
    }

    public VmSpec withCloudInitSeed(Optional<String> seed) {
        return new VmSpec(name, vcpus, memoryMiB, diskPath, network, seed, hostDevices, uefi, accelerated, options);
    }

    public VmSpec withDiskPath(Optional<String> disk) {
        return new VmSpec(name, vcpus, memoryMiB, disk, network, cloudInitSeed, hostDevices, uefi, accelerated, options);
    }
}
