package io.gpuforge.diagnose;

import io.gpuforge.domain.diagnose.Fix;
import io.gpuforge.domain.diagnose.FixPlan;
import io.gpuforge.domain.passthrough.PassthroughPlan.VmChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Advice for the causes on the host's side of passthrough: the IOMMU, groups, vfio, the framebuffer, the VGA slot. */
final class HostAdvice {

    private static final Pattern KERNEL = Pattern.compile("\\b(\\d+)\\.(\\d+)\\.\\d+(?:-\\d+)?-(?:pve|generic|arch|amd64)");
    private static final Pattern BOOT_VGA = Pattern.compile(
            "((?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]): vgaarb: (setting as|set) boot vga device");

    private HostAdvice() {
    }

    static Advice.Said of(Match m) {
        return switch (m.cause().id()) {
            case "iommu-off" -> iommuOff(m);
            case "group-not-viable" -> groupNotViable(m);
            case "group-split" -> groupSplit(m);
            case "vfio-device-busy" -> busy(m);
            case "vga-slot-conflict" -> vgaSlot(m);
            default -> framebuffer(m);
        };
    }

    private static Advice.Said iommuOff(Match m) {
        return new Advice.Said("QEMU found no IOMMU group for " + Advice.gpu(m) + ": the host runs without an IOMMU"
                + " (VT-d or AMD-Vi off in the firmware, or not turned on on the kernel command line), so no device"
                + " can be passed through.",
                Fix.withPlan("Turn on VT-d (Intel) or AMD-Vi/IOMMU (AMD) in the host firmware, add intel_iommu=on"
                        + " (Intel; AMD has it on by default) and iommu=pt to the kernel command line, and reboot;"
                        + " GPUForge's passthrough plan does the kernel side (gpuforge plan --device "
                        + m.address().orElse("<address>") + ").",
                        FixPlan.kernelArguments("intel_iommu=on", "iommu=pt")));
    }

    private static Advice.Said groupNotViable(Match m) {
        String group = m.group().stream().mapToObj(g -> "IOMMU group " + g).findFirst().orElse("its IOMMU group");
        List<LspciFunctions.Function> fns = LspciFunctions.of(m.all());
        Optional<String> slot = m.address().map(Match::slot);
        List<LspciFunctions.Function> onHost = fns.stream()
                .filter(f -> slot.map(s -> f.address().startsWith(s + ".")).orElse(true))
                .filter(f -> f.driver().filter(d -> !d.equals("vfio-pci")).isPresent()).toList();
        String who = onHost.isEmpty() ? "Another function of " + group + " (often the card's HDMI audio) is still on a"
                + " host driver." : onHost.stream().map(f -> f.address() + " (" + f.description() + ") is on "
                + f.driver().orElseThrow()).collect(Collectors.joining("; ")) + ".";
        List<String> ids = fns.stream().filter(f -> slot.map(s -> f.address().startsWith(s + ".")).orElse(true))
                .flatMap(f -> f.vendorDevice().stream()).distinct().toList();
        List<String> modprobe = new ArrayList<>();
        boolean allIds = !ids.isEmpty() && fns.stream().filter(f -> slot.map(s -> f.address().startsWith(s + "."))
                .orElse(true)).allMatch(f -> f.vendorDevice().isPresent());
        if (allIds) {
            modprobe.add("options vfio-pci ids=" + String.join(",", ids));
        }
        onHost.stream().flatMap(f -> f.driver().stream()).distinct()
                .forEach(d -> modprobe.add("softdep " + d + " pre: vfio-pci"));
        return new Advice.Said("vfio-pci can give a VM a device only when every device of its IOMMU group is on vfio-pci"
                + " (or no driver): " + group + " of " + Advice.gpu(m) + " is not. " + who,
                Fix.withPlan("Bind every function of the card to vfio-pci at boot, not only the GPU: GPUForge's"
                        + " passthrough plan does (gpuforge plan --device "
                        + m.address().orElse("<address>") + "), or by hand echo the function's address"
                        + " to /sys/bus/pci/drivers/vfio-pci/bind after unbinding it from its driver."
                        + (allIds ? "" : " The ids of every function were not all in the log: the plan reads them"
                        + " from the host."), FixPlan.modprobe(modprobe.toArray(String[]::new))));
    }

    private static Advice.Said groupSplit(Match m) {
        String slot = m.address().map(Match::slot).orElse("0000:01:00");
        return new Advice.Said("The functions of one IOMMU group were given to different guests, or added to the VM"
                + " one by one: a group is one address space and goes to one VM, whole.",
                Fix.withPlan("Pass all functions of the card together, as one multi-function device.",
                        FixPlan.vm(new VmChange("proxmox", "one hostpci entry for the whole card (no function number)",
                                        "hostpci0: " + slot + ",pcie=1"),
                                new VmChange("libvirt", "every function in one guest slot, multifunction",
                                        "<address type='pci' domain='0x0000' bus='0x06' slot='0x00' function='0x0'"
                                                + " multifunction='on'/> for .0, function='0x1' for .1"))));
    }

    private static Advice.Said busy(Match m) {
        String dev = m.find(Pattern.compile("(/dev/vfio/\\d+)")).orElse("/dev/vfio/<group>");
        return new Advice.Said("Another process holds " + dev + ": most often another running VM that has the same"
                + " GPU or the same PCI mapping, or a VM that did not stop cleanly.",
                Fix.text("Find who holds it on the host: fuser -v " + dev + " (or lsof " + dev + "); on Proxmox"
                        + " grep -l hostpci /etc/pve/qemu-server/*.conf lists the VMs with a GPU. Stop that VM or"
                        + " process, or give this VM another GPU."));
    }

    private static Advice.Said vgaSlot(Match m) {
        return new Advice.Said("The Intel iGPU must sit at 00:02.0 in the guest (legacy IGD), and the VM's emulated"
                + " VGA card already has slot 2.",
                Fix.withPlan("Turn the emulated display off so the iGPU gets the slot.",
                        FixPlan.vm(new VmChange("proxmox", "no emulated display", "vga: none"),
                                new VmChange("libvirt", "no emulated display", "<video><model type='none'/></video>"))));
    }

    private static Advice.Said framebuffer(Match m) {
        boolean named = m.supporting().stream().anyMatch(l -> l.plain().matches(".*(efifb|simpledrm|vesafb|bootfb"
                + "|efi-framebuffer|simple-framebuffer).*"));
        Optional<String> bootVga = m.find(BOOT_VGA).map(Match::withDomain);
        boolean isBoot = bootVga.isPresent() && m.address().map(bootVga.get()::equals).orElse(true);
        boolean old = oldKernel(m);
        String arg = old ? "video=efifb:off" : "initcall_blacklist=sysfb_init";
        return new Advice.Said("vfio-pci cannot reserve the memory (BAR) of " + Advice.gpu(m) + ": the host's boot"
                + " framebuffer " + (named ? "(efifb/simpledrm, as the log shows) " : "(efifb, simpledrm or vesafb) ")
                + "still holds it" + (isBoot ? ", because this card is the host's boot GPU" : "")
                + ". The VM then gets a card it cannot use, or does not start.",
                Fix.withPlan("Keep the framebuffer off the card from boot: add " + arg + " to the kernel command line"
                        + (old ? "" : " (kernel 5.15 and later; video=efifb:off on older kernels)") + " and reboot."
                        + " For now, without a reboot: echo efi-framebuffer.0 >"
                        + " /sys/bus/platform/drivers/efi-framebuffer/unbind (or simple-framebuffer.0)."
                        + (isBoot ? " The host loses its local screen: use SSH." : ""),
                        FixPlan.kernelArguments(arg)));
    }

    /** Whether the log shows a kernel older than 5.15 (before sysfb took the boot framebuffer). */
    private static boolean oldKernel(Match m) {
        return m.all().stream().map(l -> KERNEL.matcher(l.plain())).filter(Matcher::find).findFirst().map(k -> {
                    int major = Integer.parseInt(k.group(1));
                    int minor = Integer.parseInt(k.group(2));
                    return major < 5 || (major == 5 && minor < 15);
                }).orElse(false);
    }
}
