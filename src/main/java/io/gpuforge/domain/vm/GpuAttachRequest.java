package io.gpuforge.domain.vm;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import io.gpuforge.domain.pci.PciAddress;

/**
 * Give a GPU to a VM: every function of the card ({@code functions}, e.g. VGA + HDA), whether it is the VM's
 * primary display ({@code x-vga=1} on Proxmox), the Proxmox PCI resource mapping to use or create (a name
 * derived from the slot when empty), the storage for the EFI disk an OVMF VM needs when it has none, and the cards
 * the VM has that this one replaces ({@code replacing}: taken away in the same write).
 */
public record GpuAttachRequest(VmRef vm, List<PciAddress> functions, boolean primaryGpu, Optional<String> mapping,
                               Optional<String> efiStorage, String basedOnVersion, List<PciAddress> replacing) {

    public GpuAttachRequest {
        Objects.requireNonNull(vm);
        Objects.requireNonNull(mapping);
        Objects.requireNonNull(efiStorage);
        Objects.requireNonNull(basedOnVersion);
        functions = functions.stream().sorted().distinct().toList();
        replacing = List.copyOf(replacing);
        if (functions.isEmpty()) {
            throw new IllegalArgumentException("a GPU attach names at least one PCI function");
        }
    }

    /** A GPU given beside any the VM has. */
    public GpuAttachRequest(VmRef vm, List<PciAddress> functions, boolean primaryGpu, Optional<String> mapping,
                            Optional<String> efiStorage, String basedOnVersion) {
        this(vm, functions, primaryGpu, mapping, efiStorage, basedOnVersion, List.of());
    }

    /** Function 0 of the card: what the user picked. */
    public PciAddress gpu() {
        return functions.get(0);
    }
}
