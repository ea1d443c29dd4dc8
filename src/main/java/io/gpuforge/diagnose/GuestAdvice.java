package io.gpuforge.diagnose;

import io.gpuforge.domain.diagnose.Fix;
import io.gpuforge.domain.diagnose.FixPlan;
import io.gpuforge.domain.passthrough.PassthroughPlan.VmChange;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Advice for what the guest shows and for vGPU: Device Manager codes, the NVIDIA driver, mediated devices. */
final class GuestAdvice {

    private static final Pattern MDEV_UUID = Pattern.compile(
            "([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})");
    private static final Pattern LAPTOP = Pattern.compile("laptop|optimus|notebook|\\b\\d{3,4} ?m\\b|max-q|mobile");
    private static final Pattern ROM = Pattern.compile("\\brom\\b|vbios|romfile|rombar");
    private static final Pattern IGPU = Pattern.compile("igpu|igd|uhd graphics|iris|00:02\\.0");

    private GuestAdvice() {
    }

    static Advice.Said of(Match m) {
        return switch (m.cause().id()) {
            case "mmio-window-too-small" -> mmio(m);
            case "hypervisor-visible-to-driver" -> hidden(m);
            case "no-interrupt" -> interrupt(m);
            case "vgpu-unsupported-gpu" -> new Advice.Said("The NVIDIA vGPU host driver runs only on boards NVIDIA"
                    + " made for vGPU (datacenter cards; GeForce cards only with unofficial patches).",
                    Fix.text("Use a vGPU-capable card with this driver, or pass the whole card through instead."));
            case "mdev-start-failed" -> mdev(m);
            default -> code43(m);
        };
    }

    private static Advice.Said mmio(Match m) {
        String arg = "-fw_cfg opt/ovmf/X-PciMmio64Mb,string=65536";
        return new Advice.Said("Windows Code 12 (or NVRM: BAR0 is 0M) means the guest firmware found no room for the"
                + " card's large memory BAR: OVMF's 64-bit PCI window is smaller than the card's BAR (24 GB and larger"
                + " cards, Resizable BAR).",
                Fix.withPlan("Enlarge OVMF's 64-bit MMIO window to 64 GiB (or more for several large cards), and turn"
                        + " on Above 4G decoding (and Resizable BAR) in the host firmware.",
                        FixPlan.vm(new VmChange("proxmox", "a 64 GiB 64-bit MMIO window for OVMF", "args: " + arg),
                                new VmChange("libvirt", "a 64 GiB 64-bit MMIO window for OVMF (the domain element"
                                        + " needs xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0')",
                                        "<qemu:commandline>\n  <qemu:arg value='-fw_cfg'/>\n  <qemu:arg"
                                                + " value='opt/ovmf/X-PciMmio64Mb,string=65536'/>\n</qemu:commandline>"))));
    }

    private static Advice.Said hidden(Match m) {
        return new Advice.Said("GeForce drivers before 465 refuse to run when they see a hypervisor, and nvidia-smi"
                + " then cannot open the device.",
                Fix.withPlan("Update the guest's NVIDIA driver (465 or later allows VMs), or hide KVM from the guest.",
                        FixPlan.vm(new VmChange("proxmox", "hide KVM from the guest", "cpu: host,hidden=1"),
                                new VmChange("libvirt", "hide KVM from the guest",
                                        "<features><kvm><hidden state='on'/></kvm></features>"))));
    }

    private static Advice.Said interrupt(Match m) {
        return new Advice.Said("The guest's NVIDIA driver got no interrupt line for the card: the guest platform"
                + " offers it neither MSI nor a working INTx.",
                Fix.withPlan("Give the VM a PCIe platform (q35, the card as a PCIe device) and keep MSI on in the guest"
                        + " (no pci=nomsi; NVreg_EnableMSI=1).",
                        FixPlan.vm(new VmChange("proxmox", "PCIe platform", "machine: q35\nhostpci0: <card>,pcie=1"),
                                new VmChange("libvirt", "PCIe platform", "<type machine='q35'>hvm</type>"))));
    }

    private static Advice.Said mdev(Match m) {
        String uuid = m.find(MDEV_UUID).orElse("<uuid>");
        return new Advice.Said("The vGPU (mediated device " + uuid + ") could not be opened: most often two VMs"
                + " carry the same vGPU UUID (cloned configurations), a stale mediated device is left from an earlier"
                + " start, or the host's vGPU manager is in a bad state.",
                Fix.withPlan("Give each VM its own vGPU UUID (on Proxmox, compare the uuid in the VMs' configurations;"
                        + " clones keep it), remove the stale device, and restart the vGPU manager.",
                        new FixPlan(List.of(), List.of(), List.of(), List.of(), List.of(
                                "grep -H -e uuid -e hostpci /etc/pve/qemu-server/*.conf",
                                "echo 1 > /sys/bus/mdev/devices/" + uuid + "/remove",
                                "systemctl restart nvidia-vgpud nvidia-vgpu-mgr"))));
    }

    /** The known causes of Code 43/10 in order, those the log supports first. */
    private static Advice.Said code43(Match m) {
        List<String> likely = new ArrayList<>();
        List<String> others = new ArrayList<>();
        (m.mentions(ROM) ? likely : others).add("the card's ROM: give the VM a clean dump of it (romfile=, and"
                + " rom-bar on)");
        others.add("x-vga=1 when the card is the guest's primary display");
        (m.mentions(IGPU) ? likely : others).add("an Intel iGPU needs its own video ROM (romfile) and legacy IGD"
                + " mode");
        (m.mentions(LAPTOP) ? likely : others).add("a laptop's dGPU has no ROM BAR and needs its ROM in the guest"
                + " firmware (an ACPI table), and may not work at all behind Optimus");
        others.add("an old GeForce driver that refuses VMs: update it, or hide KVM (cpu: host,hidden=1)");
        boolean supported = !likely.isEmpty();
        likely.addAll(others);
        StringBuilder text = new StringBuilder("Check, in this order:");
        for (int i = 0; i < likely.size(); i++) {
            text.append(' ').append(i + 1).append(") ").append(likely.get(i)).append(';');
        }
        text.setLength(text.length() - 1);
        return new Advice.Said("The guest's driver found the GPU but could not start it (Windows Code 43 or 10,"
                + " RmInitAdapter failed, nvidia-smi finds no device). The log alone does not tell which of the known"
                + " causes it is" + (supported ? "; it points to the first below." : "."),
                Fix.text(text.append('.').toString()));
    }
}
