package io.gpuforge.passthrough;

import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.PciDevice;
import java.util.ArrayList;
import java.util.List;

/**
 * The kernel arguments passthrough needs on this host, whatever the boot loader: the IOMMU on and in
 * pass-through mode, and the boot framebuffer released when the card is the boot console.
 *
 * @param add arguments to add (a different value for the same key is replaced)
 * @param remove arguments that must go (an IOMMU turned off)
 * @param notes what the user should know about them
 */
record KernelArguments(List<String> add, List<String> remove, List<String> notes) {

    private static final List<String> IOMMU_OFF = List.of("intel_iommu=off", "amd_iommu=off", "iommu=off");

    KernelArguments {
        add = List.copyOf(add);
        remove = List.copyOf(remove);
        notes = List.copyOf(notes);
    }

    static KernelArguments forPassthrough(HostFacts f, List<PciDevice> functions) {
        List<String> add = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        boolean intel = f.summary().cpuVendor().map("Intel"::equals).orElse(false);
        // Intel kernels before 6.x leave VT-d off unless asked; AMD-Vi is on by default
        if (intel && f.pci().groups().isEmpty() && !f.cmdline().orElse("").contains("intel_iommu=on")) {
            add.add("intel_iommu=on");
        }
        add.add("iommu=pt");
        if (functions.stream().anyMatch(d -> d.details().bootVga().orElse(false))) {
            // since 5.15 the boot framebuffer is sysfb's; efifb:off no longer frees it
            add.add(KernelVersion.atLeast(f.summary().kernel().orElse(""), 5, 15) ? "initcall_blacklist=sysfb_init"
                    : "video=efifb:off");
            notes.add("The GPU is the boot console: the host loses its local screen after the reboot; use SSH.");
        }
        return new KernelArguments(add, IOMMU_OFF, notes);
    }

    /** A command line with these arguments added and removed, the others kept in order. */
    String applyTo(String cmdline) {
        return KernelCmdline.edit(cmdline, add, remove);
    }

    /** The arguments to add, as the user would type them. */
    String joined() {
        return String.join(" ", add);
    }
}
