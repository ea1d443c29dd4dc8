package io.gpuforge.domain;

import java.util.List;
import java.util.Objects;

/** A VM as a hypervisor reports it. {@code state} is lower-case ("running", "shutoff", …). */
public record VmInfo(String id, String name, String state, int vcpus, long memoryKiB, String machine,
                     String firmware, List<PciAddress> hostDevices) {

    public VmInfo {
        Objects.requireNonNull(name);
        hostDevices = List.copyOf(hostDevices);
    }
}
