package io.gpuforge.domain;

import java.util.List;
import java.util.Objects;

/**
 * A VM as a hypervisor reports it. {@code state} is lower-case ("running", "shutoff", …); disks read
 * "vda /var/lib/libvirt/images/x.qcow2", NICs "virtio 52:54:00:12:34:56 network default".
 */
public record VmInfo(String id, String name, String state, int vcpus, long memoryKiB, String machine,
                     String firmware, List<PciAddress> hostDevices, List<String> disks, List<String> nics) {

    public VmInfo {
        Objects.requireNonNull(name);
        hostDevices = List.copyOf(hostDevices);
        disks = List.copyOf(disks);
        nics = List.copyOf(nics);
    }
}
