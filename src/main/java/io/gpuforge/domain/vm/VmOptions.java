package io.gpuforge.domain.vm;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a VM made from a template needs beyond its size: where its disk goes, how big, the cloud image it starts
 * from, its cloud-init settings, and the machine details both backends set (q35 always).
 *
 * @param storage     a Proxmox VE storage for the disks (content {@code images}) or a libvirt storage pool
 * @param diskGiB     the system disk's size; with an image the imported disk is grown to it
 * @param image       the cloud image the disk starts from
 * @param cloudInit   user, keys, network and user-data for the first boot; empty for none (Windows)
 * @param cpuType     {@code host} (the host's CPU, needed by CUDA and most drivers) or a named QEMU/PVE model
 * @param tpm         a TPM 2.0 (Windows 11)
 * @param osType      Proxmox VE's {@code ostype}: {@code l26} (Linux), {@code win11}…
 * @param agent       the QEMU guest agent channel
 * @param isos        ISO images attached as CD-ROMs, in order (an installer, the VirtIO drivers): a PVE volume
 *                    ({@code local:iso/virtio-win.iso}) or, on libvirt, a volume of the pool or an absolute path
 */
public record VmOptions(Optional<String> storage, OptionalInt diskGiB, Optional<CloudImage> image,
                        Optional<CloudInit> cloudInit, String cpuType, boolean tpm, String osType, boolean agent,
                        List<String> isos) {

    public VmOptions {
        Objects.requireNonNull(storage);
        Objects.requireNonNull(diskGiB);
        Objects.requireNonNull(image);
        Objects.requireNonNull(cloudInit);
        Objects.requireNonNull(cpuType);
        Objects.requireNonNull(osType);
        isos = List.copyOf(isos);
        if (diskGiB.isPresent() && (diskGiB.getAsInt() < 1 || diskGiB.getAsInt() > 65_536)) {
            throw new IllegalArgumentException("a disk is 1 to 65536 GiB, not " + diskGiB.getAsInt());
        }
        if (!cpuType.matches("[A-Za-z0-9][A-Za-z0-9_.+-]*")) {
            throw new IllegalArgumentException("a CPU type is a model name such as 'host' or 'x86-64-v3', not '"
                    + cpuType + "'");
        }
    }

    public static VmOptions defaults() {
        return new VmOptions(Optional.empty(), OptionalInt.empty(), Optional.empty(), Optional.empty(), "host", false,
                "l26", false, List.of());
    }
}
