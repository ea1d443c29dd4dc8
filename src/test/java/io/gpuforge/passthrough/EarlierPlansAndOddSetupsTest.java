package io.gpuforge.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.host.ProbeText;
import org.junit.jupiter.api.Test;

/**
 * Hosts as they are after an earlier GPUForge plan, or set up in ways the first planner did not expect: a second
 * card must not undo the first; a GRUB drop-in that sets the command line is where the arguments must go; a
 * mkinitcpio without a MODULES line and a systemd-boot without /etc/kernel/cmdline are told, not ignored.
 */
class EarlierPlansAndOddSetupsTest {

    private static final String GRUB = "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash\"\nGRUB_CMDLINE_LINUX=\"\"\n";

    /** Two RTX 3090 (one stays with the host) and an RTX 4070, each alone in its group. */
    private static ProbeText host() {
        return new ProbeText().file("/proc/cmdline", "BOOT_IMAGE=/vmlinuz-6.8.0 root=/dev/nvme0n1p2 ro quiet\n")
                .file("/proc/version", "Linux version 6.8.0-45-generic (buildd@lcy02) #45-Ubuntu SMP\n")
                .file("/etc/default/grub", GRUB).exists("/usr/sbin/update-grub", "/usr/sbin/update-initramfs")
                .gpu("0000:01:00.0", "10de", "2786", "030000", 11, "nvidia")
                .gpu("0000:01:00.1", "10de", "22bc", "040300", 11, "snd_hda_intel")
                .gpu("0000:02:00.0", "10de", "2204", "030000", 12, "nvidia")
                .gpu("0000:02:00.1", "10de", "1aef", "040300", 12, "snd_hda_intel")
                .gpu("0000:03:00.0", "10de", "2204", "030000", 13, "nvidia")
                .gpu("0000:03:00.1", "10de", "1aef", "040300", 13, "snd_hda_intel");
    }

    /** An Arch host (mkinitcpio), ProbeText being a builder: a fresh one each time. */
    private static ProbeText arch() {
        return new ProbeText().file("/proc/cmdline", "root=/dev/nvme0n1p2 rw\n")
                .file("/proc/version", "Linux version 6.11.5-arch1-1 (linux@archlinux) #1 SMP PREEMPT_DYNAMIC\n")
                .file("/etc/default/grub", GRUB).exists("/usr/bin/grub-mkconfig", "/usr/bin/mkinitcpio")
                .gpu("0000:01:00.0", "10de", "2786", "030000", 11, "nvidia");
    }

    private static String after(PassthroughPlan p, String path) {
        return p.edits().stream().filter(e -> e.path().equals(path)).findFirst()
                .orElseThrow(() -> new AssertionError("no edit of " + path + " in " + p.edits())).after();
    }

    private static PassthroughPlan plan(HostFacts f, String device) throws Exception {
        return Planner.plan(f, PciAddress.parse(device), PlanOptions.defaults());
    }

    @Test
    void aCardBoundByAddressAfterOneBoundByIdsKeepsTheFirstCardsIds() throws Exception {
        PassthroughPlan first = plan(host().facts(), "0000:01:00.0");
        String modprobe = after(first, Planner.MODPROBE_FILE);
        assertThat(modprobe).contains("options vfio-pci ids=10de:22bc,10de:2786");
        // the 4070 is applied; now one of the two identical 3090s (the other stays): by address
        PassthroughPlan second = plan(host().file(Planner.MODPROBE_FILE, modprobe).facts(), "0000:02:00.0");
        assertThat(io.gpuforge.testing.English.english(second.notes())).anySatisfy(n -> assertThat(n).contains("by PCI address"));
        String modprobeAfter = second.edits().stream().filter(e -> e.path().equals(Planner.MODPROBE_FILE)).findFirst()
                .map(PassthroughPlan.FileEdit::after).orElse(modprobe);
        assertThat(modprobeAfter).as("the 4070 must stay on vfio-pci").contains("options vfio-pci ids=10de:22bc,10de:2786");
        assertThat(after(second, Planner.UDEV_FILE)).contains("KERNEL==\"0000:02:00.0\"").contains("KERNEL==\"0000:02:00.1\"");
    }

    @Test
    void aSecondCardBoundByAddressKeepsTheFirstCardsRules() throws Exception {
        String rules = "# Written by GPUForge: these functions go to vfio-pci, identical cards elsewhere stay with the host.\n"
                + "ACTION==\"add\", SUBSYSTEM==\"pci\", KERNEL==\"0000:02:00.0\", ATTR{driver_override}=\"vfio-pci\"\n"
                + "ACTION==\"add\", SUBSYSTEM==\"pci\", KERNEL==\"0000:02:00.1\", ATTR{driver_override}=\"vfio-pci\"\n";
        // a third, identical card in the host, so 0000:03:00 is bound by address too
        HostFacts f = host().gpu("0000:04:00.0", "10de", "2204", "030000", 14, "nvidia")
                .gpu("0000:04:00.1", "10de", "1aef", "040300", 14, "snd_hda_intel")
                .file(Planner.UDEV_FILE, rules).facts();
        String after = after(plan(f, "0000:03:00.0"), Planner.UDEV_FILE);
        assertThat(after).contains("KERNEL==\"0000:02:00.0\"", "KERNEL==\"0000:02:00.1\"", "KERNEL==\"0000:03:00.0\"",
                "KERNEL==\"0000:03:00.1\"");
        assertThat(after).doesNotContain("0000:04:00");
    }

    @Test
    void aGrubDropInThatSetsTheCommandLineIsWhereTheArgumentsGo() throws Exception {
        // Ubuntu cloud images: /etc/default/grub.d/50-cloudimg-settings.cfg wins over /etc/default/grub
        String dropIn = "# Cloud Image specific Grub settings for Generic Cloud Images\n"
                + "GRUB_CMDLINE_LINUX_DEFAULT=\"console=tty1 console=ttyS0\"\nGRUB_TIMEOUT=0\n";
        HostFacts f = host().file("/etc/default/grub.d/50-cloudimg-settings.cfg", dropIn)
                .file("/etc/default/grub.d/40-force-partuuid.cfg", "GRUB_FORCE_PARTUUID=abc\n").facts();
        PassthroughPlan p = plan(f, "0000:01:00.0");
        assertThat(after(p, "/etc/default/grub.d/50-cloudimg-settings.cfg"))
                .contains("GRUB_CMDLINE_LINUX_DEFAULT=\"console=tty1 console=ttyS0 iommu=pt\"").contains("GRUB_TIMEOUT=0");
        assertThat(p.edits()).extracting(PassthroughPlan.FileEdit::path).doesNotContain("/etc/default/grub",
                "/etc/default/grub.d/40-force-partuuid.cfg");
        assertThat(p.commands()).contains("update-grub");
    }

    @Test
    void anIommuTurnedOffInTheMainFileIsTurnedOnEvenWhenADropInExtendsIt() throws Exception {
        HostFacts f = host().file("/etc/default/grub", GRUB.replace("quiet splash", "quiet intel_iommu=off"))
                .file("/etc/default/grub.d/60-extra.cfg", "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT nomodeset\"\n")
                .facts();
        PassthroughPlan p = plan(f, "0000:01:00.0");
        assertThat(after(p, "/etc/default/grub")).contains("GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"")
                .doesNotContain("intel_iommu=off");
        assertThat(after(p, "/etc/default/grub.d/60-extra.cfg"))
                .contains("GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT nomodeset iommu=pt\"");
    }

    @Test
    void mkinitcpioWithoutAModulesLineGetsOneAndWithoutItsFileTheUserIsTold() throws Exception {
        PassthroughPlan p = plan(arch().file("/etc/mkinitcpio.conf", "HOOKS=(base udev autodetect)\n").facts(),
                "0000:01:00.0");
        assertThat(after(p, "/etc/mkinitcpio.conf")).isEqualTo("HOOKS=(base udev autodetect)\n"
                + "MODULES=(vfio vfio_iommu_type1 vfio_pci)\n");
        PassthroughPlan none = plan(arch().facts(), "0000:01:00.0");
        assertThat(io.gpuforge.testing.English.english(none.notes())).anySatisfy(n -> assertThat(n).contains("/etc/mkinitcpio.conf")
                .contains("vfio vfio_iommu_type1 vfio_pci"));
    }

    @Test
    void systemdBootWithoutAKernelCmdlineFileIsNamedAndOnProxmoxTheFileIsMade() throws Exception {
        ProbeText sd = new ProbeText().file("/proc/cmdline", "initrd=\\EFI\\proxmox\\6.8.12-4-pve\\initrd.img-6.8.12-4-pve"
                        + " root=ZFS=rpool/ROOT/pve-1 boot=zfs\n")
                .file("/proc/version", "Linux version 6.8.12-4-pve (build@proxmox) #1 SMP PREEMPT_DYNAMIC\n")
                .exists("/boot/efi/loader/loader.conf")
                .gpu("0000:01:00.0", "10de", "2786", "030000", 11, "nvidia");
        PassthroughPlan plain = plan(sd.facts(), "0000:01:00.0");
        assertThat(io.gpuforge.testing.English.english(plain.notes())).anySatisfy(n -> assertThat(n).contains("systemd-boot").contains("iommu=pt")
                .doesNotContain("unknown"));
        PassthroughPlan pve = plan(sd.exists("/usr/sbin/proxmox-boot-tool").cmd("proxmox-boot-tool status",
                "2A5B-1C3D is configured with: uefi (versions: 6.8.12-4-pve)\n").facts(), "0000:01:00.0");
        PassthroughPlan.FileEdit made = pve.edits().stream().filter(e -> e.path().equals("/etc/kernel/cmdline"))
                .findFirst().orElseThrow();
        assertThat(made.before()).isEmpty();
        assertThat(made.after()).isEqualTo("root=ZFS=rpool/ROOT/pve-1 boot=zfs iommu=pt\n");
        assertThat(pve.commands()).contains("proxmox-boot-tool refresh");
    }
}
