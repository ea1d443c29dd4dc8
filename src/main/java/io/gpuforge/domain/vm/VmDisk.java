package io.gpuforge.domain.vm;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One disk or CD-ROM of a VM: its slot ({@code scsi0}, {@code vda}), where it lives ({@code local-zfs:vm-101-disk-0},
 * {@code /var/lib/libvirt/images/x.qcow2}), its size when known, and whether it is a CD-ROM.
 */
public record VmDisk(String slot, String source, OptionalLong sizeBytes, boolean cdrom) {

    public VmDisk {
        Objects.requireNonNull(slot);
        Objects.requireNonNull(source);
        Objects.requireNonNull(sizeBytes);
    }
}
