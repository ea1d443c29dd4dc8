package io.gpuforge.diagnose;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.diagnose.Fix;
import io.gpuforge.domain.diagnose.FixPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
        return new Advice.Said(Advice.says(m, "why", Advice.gpu(m)),
                Fix.withPlan(Advice.says(m, "fix", Advice.address(m)),
                        FixPlan.kernelArguments("intel_iommu=on", "iommu=pt")));
    }

    private static Advice.Said groupNotViable(Match m) {
        Message group = m.group().stream().mapToObj(g -> Message.of("group.numbered", Integer.toString(g))).findFirst()
                .orElse(Message.of("group.its"));
        List<LspciFunctions.Function> fns = LspciFunctions.of(m.all());
        Optional<String> slot = m.address().map(Match::slot);
        List<LspciFunctions.Function> onHost = fns.stream()
                .filter(f -> slot.map(s -> f.address().startsWith(s + ".")).orElse(true))
                .filter(f -> f.driver().filter(d -> !d.equals("vfio-pci")).isPresent()).toList();
        Message who = onHost.isEmpty() ? Advice.says(m, "another", group) : Advice.says(m, "onHost",
                onHost.stream().map(f -> Message.of("function.onDriver", f.address(), f.description(),
                        f.driver().orElseThrow())).toList());
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
        return new Advice.Said(Advice.says(m, "why", group, Advice.gpu(m), who),
                Fix.withPlan(Advice.says(m, "fix", Advice.address(m), allIds ? "" : Advice.says(m, "idsMissing")),
                        FixPlan.modprobe(modprobe.toArray(String[]::new))));
    }

    private static Advice.Said groupSplit(Match m) {
        String slot = m.address().map(Match::slot).orElse("0000:01:00");
        return Advice.vmChange(m, new FixPlan.VmEdit("proxmox", Message.of("change.wholeCard.proxmox"),
                        "hostpci0: " + slot + ",pcie=1"),
                new FixPlan.VmEdit("libvirt", Message.of("change.wholeCard.libvirt"),
                        "<address type='pci' domain='0x0000' bus='0x06' slot='0x00' function='0x0'"
                                + " multifunction='on'/> for .0, function='0x1' for .1"));
    }

    private static Advice.Said busy(Match m) {
        String dev = m.find(Pattern.compile("(/dev/vfio/\\d+)")).orElse("/dev/vfio/<group>");
        return new Advice.Said(Advice.says(m, "why", dev), Fix.text(Advice.says(m, "fix", dev)));
    }

    private static Advice.Said vgaSlot(Match m) {
        return Advice.vmChange(m, new FixPlan.VmEdit("proxmox", Message.of("change.noDisplay"), "vga: none"),
                new FixPlan.VmEdit("libvirt", Message.of("change.noDisplay"),
                        "<video><model type='none'/></video>"));
    }

    private static Advice.Said framebuffer(Match m) {
        boolean named = m.supporting().stream().anyMatch(l -> l.plain().matches(".*(efifb|simpledrm|vesafb|bootfb"
                + "|efi-framebuffer|simple-framebuffer).*"));
        Optional<String> bootVga = m.find(BOOT_VGA).map(Match::withDomain);
        boolean isBoot = bootVga.isPresent() && m.address().map(bootVga.get()::equals).orElse(true);
        boolean old = oldKernel(m);
        String arg = old ? "video=efifb:off" : "initcall_blacklist=sysfb_init";
        Message which = Message.of(named ? "framebuffer.named" : "framebuffer.any");
        return new Advice.Said(Advice.says(m, isBoot ? "why.boot" : "why", Advice.gpu(m), which),
                Fix.withPlan(Advice.says(m, old ? "fix.old" : "fix", arg,
                                isBoot ? Advice.says(m, "noScreen") : ""),
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
