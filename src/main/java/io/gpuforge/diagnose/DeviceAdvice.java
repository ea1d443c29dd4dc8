package io.gpuforge.diagnose;

import io.gpuforge.domain.diagnose.Fix;
import io.gpuforge.domain.diagnose.FixPlan;
import io.gpuforge.domain.passthrough.PassthroughPlan.VmChange;
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
        return new Advice.Said("The host could not wake " + Advice.gpu(m) + " from its deepest sleep (D3cold): its"
                + " configuration space reads as all ones. vfio-pci idles unused devices into D3, and many cards (modern"
                + " AMD boot GPUs especially) do not come back from there.",
                Fix.withPlan("Keep vfio-pci from idling the card (options vfio-pci disable_idle_d3=1, costs a little"
                        + " idle power), forbid D3cold for it, and keep host drivers (nvidia, nvidia-persistenced,"
                        + " amdgpu) off the card so they do not power it down; then reboot the host.",
                        FixPlan.modprobe("options vfio-pci disable_idle_d3=1").withUdevRules(List.of(
                                "ACTION==\"add\", SUBSYSTEM==\"pci\", KERNEL==\"" + where
                                        + "\", ATTR{d3cold_allowed}=\"0\""))));
    }

    private static Advice.Said resetBug(Match m) {
        Optional<CardFamilies.Family> family = CardFamilies.resetBug(m.all());
        String card = family.map(f -> "an AMD " + f.name() + " card, a family that does not reset itself between"
                + " VMs").orElse("a card that failed its reset");
        String explanation = "After the last VM stopped, the card did not answer its reset (AER completion timeouts,"
                + " \"not ready … after FLR/bus reset\"): it is " + card + ". Until the host reboots, every start with"
                + " it fails.";
        if (family.isEmpty()) {
            return new Advice.Said(explanation, Fix.text("Reboot the host to bring the card back, and avoid restarting"
                    + " the VM without a host reboot. If the card is an AMD Polaris, Vega or Navi 10 card, vendor-reset"
                    + " fixes this (its model or PCI id was not in the log)."));
        }
        Optional<String> device = CardFamilies.deviceId(family.get(), m.all());
        Optional<String> match = device.map(d -> "ATTR{vendor}==\"0x1002\", ATTR{device}==\"0x" + d + "\"")
                .or(() -> m.address().map(a -> "KERNEL==\"" + a + "\""));
        List<String> udev = match.map(x -> List.of("ACTION==\"add\", SUBSYSTEM==\"pci\", " + x
                + ", RUN+=\"/bin/sh -c 'echo device_specific > /sys$devpath/reset_method'\"")).orElse(List.of());
        return new Advice.Said(explanation, Fix.withPlan("Install vendor-reset (DKMS), load it at boot, and have the"
                + " card use it (reset_method=device_specific, kernel 5.15 and later) with a udev rule"
                + (match.isEmpty() ? " matching the card (its PCI id was not in the log)" : "") + "; until then reboot"
                + " the host between VM starts.",
                new FixPlan(List.of(), List.of(), udev, List.of(),
                        List.of("apt install dkms pve-headers && git clone https://github.com/gnif/vendor-reset && dkms"
                                + " install ./vendor-reset", "echo vendor-reset >> /etc/modules"))));
    }

    private static Advice.Said noReset(Match m) {
        String fn = m.find(NO_RESET).map(Match::withDomain).orElse(m.address().orElse("a function of the card"));
        return new Advice.Said("The kernel cannot reset " + fn + ": it has no FLR, no power-management reset, and"
                + " shares its bus with other functions, so vfio-pci refuses to hand it over on its own.",
                Fix.text("Pass the whole slot (every function of the card, e.g. hostpci0: " + slotOf(fn)
                        + " on Proxmox) so the whole device is reset together, or leave " + fn + " out of the VM."));
    }

    private static String slotOf(String fn) {
        return fn.matches(".*\\.[0-7]") ? Match.slot(fn) : "<slot>";
    }

    private static Advice.Said dmaMap(Match m) {
        return new Advice.Said("A VM with a passed-through device has all its memory pinned (locked) for the"
                + " device's DMA. Pinning failed or took too long: the locked-memory limit is too low, memory is"
                + " fragmented or short, or ballooning/memory hotplug fight the pinning; large-RAM VMs can also time"
                + " out while pinning.",
                Fix.withPlan("Turn ballooning and memory hotplug off for a VM with a GPU, give it fewer GiB or back it"
                        + " with hugepages, and raise the locked-memory limit where QEMU runs (libvirt does it"
                        + " itself; plain QEMU: LimitMEMLOCK=infinity or ulimit -l unlimited).",
                        FixPlan.vm(new VmChange("proxmox", "no ballooning, no memory hotplug, hugepages",
                                        "balloon: 0\nhotplug: disk,network,usb\nhugepages: 1024"),
                                new VmChange("libvirt", "no balloon, hugepages",
                                        "<memballoon model='none'/>\n<memoryBacking><hugepages/></memoryBacking>"))));
    }

    private static Advice.Said dmarFault(Match m) {
        boolean rom = m.mentions(Signatures.HARMLESS_ROM);
        return new Advice.Said("The IOMMU blocked the device's DMA to an address outside what it maps for it: the"
                + " device (or its firmware) uses memory the host reserved (an RMRR region), or a firmware feature"
                + " DMAs on its own." + (rom ? " The \"Invalid PCI ROM header signature\" line in the same log is"
                + " harmless (an Intel iGPU has no ROM BAR) and not the cause." : ""),
                Fix.withPlan("Update the host firmware and turn off what DMAs behind the OS's back for this device"
                        + " (legacy/CSM option ROMs, onboard management features); put the IOMMU in pass-through mode"
                        + " for host devices (iommu=pt); a device behind an RMRR cannot be passed through on kernels"
                        + " that enforce it.", FixPlan.kernelArguments("iommu=pt")));
    }
}
