package io.gpuforge.diagnose;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.diagnose.Fix;
import io.gpuforge.domain.diagnose.FixPlan;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** Advice for the causes in the card itself or its memory: power states, resets, pinning, DMA faults. */
final class DeviceAdvice {

    private static final Pattern NO_RESET = Pattern.compile(
            "cannot reset device ((?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7])");

    private DeviceAdvice() {
    }

    static Advice.Said of(Match m) {
        return switch (m.cause().id()) {
            case "power-state" -> powerState(m);
            case "reset-bug" -> resetBug(m);
            case "no-reset-mechanism" -> noReset(m);
            case "dma-map-failed" -> dmaMap(m);
            default -> dmarFault(m);
        };
    }

    private static Advice.Said powerState(Match m) {
        String where = m.address().orElse("<address>");
        return new Advice.Said(Advice.says(m, "why", Advice.gpu(m)),
                Fix.withPlan(Advice.says(m, "fix"),
                        FixPlan.modprobe("options vfio-pci disable_idle_d3=1").withUdevRules(List.of(
                                "ACTION==\"add\", SUBSYSTEM==\"pci\", KERNEL==\"" + where
                                        + "\", ATTR{d3cold_allowed}=\"0\""))));
    }

    private static Advice.Said resetBug(Match m) {
        Optional<CardFamilies.Family> family = CardFamilies.resetBug(m.all());
        Message card = family.map(f -> Advice.says(m, "family", f.name())).orElse(Advice.says(m, "anyCard"));
        Message explanation = Advice.says(m, "why", card);
        if (family.isEmpty()) {
            return new Advice.Said(explanation, Fix.text(Advice.says(m, "fix.reboot")));
        }
        Optional<String> device = CardFamilies.deviceId(family.get(), m.all());
        Optional<String> match = device.map(d -> "ATTR{vendor}==\"0x1002\", ATTR{device}==\"0x" + d + "\"")
                .or(() -> m.address().map(a -> "KERNEL==\"" + a + "\""));
        List<String> udev = match.map(x -> List.of("ACTION==\"add\", SUBSYSTEM==\"pci\", " + x
                + ", RUN+=\"/bin/sh -c 'echo device_specific > /sys$devpath/reset_method'\"")).orElse(List.of());
        return new Advice.Said(explanation, Fix.withPlan(Advice.says(m, match.isEmpty() ? "fix.noId" : "fix"),
                new FixPlan(List.of(), List.of(), udev, List.of(),
                        List.of("apt install dkms pve-headers && git clone https://github.com/gnif/vendor-reset && dkms"
                                + " install ./vendor-reset", "echo vendor-reset >> /etc/modules"))));
    }

    private static Advice.Said noReset(Match m) {
        Optional<String> address = m.find(NO_RESET).map(Match::withDomain).or(m::address);
        Object fn = address.<Object>map(a -> a).orElse(Advice.says(m, "aFunction"));
        return new Advice.Said(Advice.says(m, "why", fn),
                Fix.text(Advice.says(m, "fix", fn, address.filter(a -> a.matches(".*\\.[0-7]")).<Object>map(Match::slot)
                        .orElse(Message.of("placeholder.slot")))));
    }

    private static Advice.Said dmaMap(Match m) {
        return Advice.vmChange(m, new FixPlan.VmEdit("proxmox", Message.of("change.pinning.proxmox"),
                        "balloon: 0\nhotplug: disk,network,usb\nhugepages: 1024"),
                new FixPlan.VmEdit("libvirt", Message.of("change.pinning.libvirt"),
                        "<memballoon model='none'/>\n<memoryBacking><hugepages/></memoryBacking>"));
    }

    private static Advice.Said dmarFault(Match m) {
        boolean rom = m.mentions(Signatures.HARMLESS_ROM);
        return new Advice.Said(Advice.says(m, "why", rom ? Advice.says(m, "harmlessRom") : ""),
                Fix.withPlan(Advice.says(m, "fix"), FixPlan.kernelArguments("iommu=pt")));
    }
}
