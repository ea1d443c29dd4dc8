package io.gpuforge.domain.pci;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The PCI functions of a host and its IOMMU groups, both sorted numerically. */
public record PciInventory(List<PciDevice> devices, List<IommuGroup> groups) {

    public PciInventory {
        devices = devices.stream().sorted(Comparator.comparing(PciDevice::address)).toList();
        groups = groups.stream().sorted(Comparator.comparingInt(IommuGroup::id)).toList();
    }

    public static PciInventory empty() {
        return new PciInventory(List.of(), List.of());
    }

    /** Builds the groups from each device's {@code iommuGroup}. */
    public static PciInventory fromDevices(Collection<PciDevice> devices) {
        Map<Integer, List<PciAddress>> byGroup = new TreeMap<>();
        for (PciDevice d : devices) {
            d.iommuGroup().ifPresent(g -> byGroup.computeIfAbsent(g, k -> new ArrayList<>()).add(d.address()));
        }
        List<IommuGroup> groups = new ArrayList<>();
        byGroup.forEach((id, members) -> groups.add(new IommuGroup(id, members)));
        return new PciInventory(new ArrayList<>(devices), groups);
    }

    public Optional<PciDevice> device(PciAddress a) {
        return devices.stream().filter(d -> d.address().equals(a)).findFirst();
    }

    public Optional<IommuGroup> group(int id) {
        return groups.stream().filter(g -> g.id() == id).findFirst();
    }

    public List<GpuPlacement> gpus() {
        return GpuPlacement.of(this);
    }
}
