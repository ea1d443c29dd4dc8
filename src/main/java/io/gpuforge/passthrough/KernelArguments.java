package io.gpuforge.passthrough;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciDevice;
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
record KernelArguments(List<String> add, List<String> remove, List<Message> notes) {

    private static final List<String> IOMMU_OFF = List.of("intel_iommu=off", "amd_iommu=off", "iommu=off");

    KernelArguments {
        add = List.copyOf(add);
        remove = List.copyOf(remove);
        notes = List.copyOf(notes);
    }

    static KernelArguments forPassthrough(HostFacts f, List<PciDevice> functions) {
        List<String> add = new ArrayList<>();
        List<Message> notes = new ArrayList<>();
        // Intel kernels before 6.x leave VT-d off unless asked; AMD-Vi is on by default
        if (vtd(f) && f.pci().groups().isEmpty() && !f.cmdline().orElse("").contains("intel_iommu=on")) {
            add.add("intel_iommu=on");
        }
        add.add("iommu=pt");
        if (functions.stream().anyMatch(d -> d.details().bootVga().orElse(false))) {
            // since 5.15 the boot framebuffer is sysfb's; efifb:off no longer frees it
            add.add(KernelVersion.atLeast(f.summary().kernel().orElse(""), 5, 15) ? "initcall_blacklist=sysfb_init"
                    : "video=efifb:off");
            notes.add(Message.of("note.bootConsole"));
        }
        return new KernelArguments(add, IOMMU_OFF, notes);
    }

    /**
     * Whether the host's IOMMU is Intel VT-d, which {@code intel_iommu=} switches: the firmware's DMAR table says so
     * (an AMD-Vi host has IVRS instead); only where the tables were not seen does the CPU's vendor stand in. The two
     * differ in a VM with an emulated VT-d on a CPU model of another vendor (nested labs, QEMU's TCG).
     */
    static boolean vtd(HostFacts f) {
        if (f.acpiDmar().orElse(false)) {
            return true;
        }
        if (f.acpiIvrs().orElse(false)) {
            return false;
        }
        return f.summary().cpuVendor().map("Intel"::equals).orElse(false);
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
