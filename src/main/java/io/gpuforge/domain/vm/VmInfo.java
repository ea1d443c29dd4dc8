package io.gpuforge.domain.vm;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import io.gpuforge.domain.pci.PciAddress;

/**
 * A VM as the inventory lists it: reference, name, state, size. {@code details} is there when the backend
 * had the configuration at hand (libvirt reads each domain's XML anyway); for Proxmox VE it is read on demand
 * ({@code Hypervisor.readConfig}), because the cluster-wide listing does not carry it.
 */
public record VmInfo(VmRef ref, String name, VmState state, boolean template, int vcpus, long memoryBytes,
                     Optional<VmDetails> details) {

    public VmInfo {
        Objects.requireNonNull(ref);
        Objects.requireNonNull(name);
        Objects.requireNonNull(state);
        Objects.requireNonNull(details);
    }

    /** The PCI functions passed through, as far as known here. */
    public List<PciAddress> hostDevices() {
        return details.map(VmDetails::hostDevices).orElse(List.of());
    }

    public VmInfo withDetails(VmDetails d) {
        return new VmInfo(ref, name, state, template, d.vcpus(), d.memoryBytes(), Optional.of(d));
    }
}
