package io.gpuforge.diagnose;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.diagnose.Fix;
import io.gpuforge.domain.diagnose.FixPlan;
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
            case "vgpu-unsupported-gpu" -> new Advice.Said(Advice.says(m, "why"), Fix.text(Advice.says(m, "fix")));
            case "mdev-start-failed" -> mdev(m);
            default -> code43(m);
        };
    }

    private static Advice.Said mmio(Match m) {
        String arg = "-fw_cfg opt/ovmf/X-PciMmio64Mb,string=65536";
        return Advice.vmChange(m, new FixPlan.VmEdit("proxmox", Message.of("change.mmio.proxmox"), "args: " + arg),
                new FixPlan.VmEdit("libvirt", Message.of("change.mmio.libvirt"),
                        "<qemu:commandline>\n  <qemu:arg value='-fw_cfg'/>\n  <qemu:arg"
                                + " value='opt/ovmf/X-PciMmio64Mb,string=65536'/>\n</qemu:commandline>"));
    }

    private static Advice.Said hidden(Match m) {
        return Advice.vmChange(m, new FixPlan.VmEdit("proxmox", Message.of("change.hideKvm"), "cpu: host,hidden=1"),
                new FixPlan.VmEdit("libvirt", Message.of("change.hideKvm"),
                        "<features><kvm><hidden state='on'/></kvm></features>"));
    }

    private static Advice.Said interrupt(Match m) {
        return Advice.vmChange(m, new FixPlan.VmEdit("proxmox", Message.of("change.pcie"),
                        "machine: q35\nhostpci0: <card>,pcie=1"),
                new FixPlan.VmEdit("libvirt", Message.of("change.pcie"),
                        "<type machine='q35'>hvm</type>"));
    }

    private static Advice.Said mdev(Match m) {
        String uuid = m.find(MDEV_UUID).orElse("<uuid>");
        return new Advice.Said(Advice.says(m, "why", uuid),
                Fix.withPlan(Advice.says(m, "fix"),
                        new FixPlan(List.of(), List.of(), List.of(), List.of(), List.of(
                                "grep -H -e uuid -e hostpci /etc/pve/qemu-server/*.conf",
                                "echo 1 > /sys/bus/mdev/devices/" + uuid + "/remove",
                                "systemctl restart nvidia-vgpud nvidia-vgpu-mgr"))));
    }

    /** The known causes of Code 43/10 in order, those the log supports first. */
    private static Advice.Said code43(Match m) {
        List<String> likely = new ArrayList<>();
        List<String> others = new ArrayList<>();
        (m.mentions(ROM) ? likely : others).add("rom");
        others.add("xVga");
        (m.mentions(IGPU) ? likely : others).add("igpu");
        (m.mentions(LAPTOP) ? likely : others).add("laptop");
        others.add("oldDriver");
        boolean supported = !likely.isEmpty();
        likely.addAll(others);
        List<Message> items = new ArrayList<>();
        for (int i = 0; i < likely.size(); i++) {
            items.add(Message.of("numbered", Integer.toString(i + 1), Advice.says(m, "check." + likely.get(i))));
        }
        return new Advice.Said(Advice.says(m, supported ? "why.pointed" : "why"),
                Fix.text(Advice.says(m, "fix", items)));
    }
}
