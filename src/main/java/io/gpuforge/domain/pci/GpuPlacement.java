package io.gpuforge.domain.pci;

import java.util.ArrayList;
import java.util.List;

/**
 * A GPU in its IOMMU group: the functions of its slot that share the group, how isolated it is, and the
 * other devices it shares the group with.
 */
public record GpuPlacement(PciAddress address, int group, List<PciAddress> functions, Isolation isolation,
                           List<PciAddress> sharedWith) {

    public GpuPlacement {
        functions = List.copyOf(functions);
        sharedWith = List.copyOf(sharedWith);
    }

    /** Places every GPU (base class 03) of an inventory; GPUs without a group are left out. */
    public static List<GpuPlacement> of(PciInventory inventory) {
        List<GpuPlacement> out = new ArrayList<>();
        for (PciDevice d : inventory.devices()) {
            if (!d.isGpu() || d.iommuGroup().isEmpty()) {
                continue;
            }
            int g = d.iommuGroup().getAsInt();
            List<PciAddress> functions = new ArrayList<>();
            List<PciAddress> others = new ArrayList<>();
            boolean onlyBridges = true;
            for (PciAddress member : inventory.group(g).map(IommuGroup::members).orElse(List.of(d.address()))) {
                if (member.sameSlot(d.address())) {
                    functions.add(member);
                } else {
                    others.add(member);
                    onlyBridges &= inventory.device(member).map(PciDevice::isBridge).orElse(false);
                }
            }
            Isolation iso = others.isEmpty() ? Isolation.ISOLATED
                    : onlyBridges ? Isolation.SHARES_WITH_BRIDGES : Isolation.SHARED;
            out.add(new GpuPlacement(d.address(), g, functions, iso, others));
        }
        return out;
    }
}
