package io.gpuforge.domain.vm;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import io.gpuforge.domain.pci.PciAddress;

/**
 * A VM's configuration in the product's own terms, the same for both backends: machine type, firmware,
 * CPU and memory, every disk and NIC, and every passed-through PCI function (with the Proxmox resource
 * mapping it came from, when it came from one).
 *
 * @param machine {@code q35}, {@code pc-q35-8.1}, {@code i440fx}…, empty when the VM does not say
 * @param hostDevices host PCI functions given to the VM (resolved from mappings where the backend can)
 * @param pciMappings Proxmox PCI resource mappings the VM uses ({@code gpu-01-00}); empty for libvirt
 * @param balloon whether memory ballooning is on, when the configuration says
 */
public record VmDetails(Optional<String> machine, Firmware firmware, int sockets, int cores, long memoryBytes,
                        List<VmDisk> disks, List<VmNic> nics, List<PciAddress> hostDevices, List<String> pciMappings,
                        Optional<Boolean> balloon, Optional<Boolean> guestAgent, Optional<String> osType) {

    public VmDetails {
        Objects.requireNonNull(machine);
        Objects.requireNonNull(firmware);
        Objects.requireNonNull(balloon);
        Objects.requireNonNull(guestAgent);
        Objects.requireNonNull(osType);
        disks = List.copyOf(disks);
        nics = List.copyOf(nics);
        hostDevices = List.copyOf(hostDevices);
        pciMappings = List.copyOf(pciMappings);
    }

    /** Virtual CPUs: sockets × cores. */
    public int vcpus() {
        return Math.max(1, sockets) * Math.max(1, cores);
    }

    public boolean isQ35() {
        return machine.map(m -> m.contains("q35")).orElse(false);
    }
}
