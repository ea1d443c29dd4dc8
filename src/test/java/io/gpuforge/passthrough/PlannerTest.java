package io.gpuforge.passthrough;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.passthrough.PassthroughOverrides;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.testing.HostTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plans for the sysroot hosts, file by file. */
class PlannerTest {

    @TempDir
    Path dir;

    private static HostFacts facts(Path root) throws Exception {
        return new HostProbe().probeLocal(Optional.of(root));
    }

    private static PciAddress a(String s) {
        return PciAddress.parse(s);
    }

    private static PassthroughPlan.FileEdit edit(PassthroughPlan p, String path) {
        return p.edits().stream().filter(e -> e.path().equals(path)).findFirst()
                .orElseThrow(() -> new AssertionError("no edit of " + path + " in " + p.edits()));
    }

    @Test
    void proxmoxSystemdBoot() throws Exception {
        PassthroughPlan p = Planner.plan(facts(HostTrees.proxmoxSystemdBoot(dir)), a("0000:81:00.0"),
                new PlanOptions(PassthroughOverrides.none(), false, Optional.of("210")));
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/plan-proxmox-systemd-boot.diff"), p.edits().stream()
                .map(PassthroughPlan.FileEdit::diff).reduce("", String::concat) + String.join("\n", p.commands()) + "\n");
        assertThat(p.functions()).containsExactly(a("0000:81:00.0"), a("0000:81:00.1"));
        assertThat(edit(p, "/etc/kernel/cmdline").after()).isEqualTo("root=ZFS=rpool/ROOT/pve-1 boot=zfs iommu=pt\n");
        assertThat(p.edits()).noneMatch(e -> e.path().equals("/etc/default/grub"));
        assertThat(edit(p, "/etc/modules").after()).as("stale vfio_virqfd dropped on 6.8")
                .isEqualTo("# /etc/modules\nvfio\nvfio_iommu_type1\nvfio_pci\n");
        assertThat(p.commands()).containsExactly("proxmox-boot-tool refresh", "update-initramfs -u -k all");
        assertThat(p.rebootNeeded()).isTrue();
        // all four 3090s are identical and only one is planned: binding by address, not ids
        assertThat(p.edits()).as("already on vfio-pci, no ids: nothing for modprobe.d")
                .noneMatch(e -> e.path().equals(Planner.MODPROBE_FILE));
        assertThat(edit(p, Planner.UDEV_FILE).after()).contains("KERNEL==\"0000:81:00.0\"")
                .contains("KERNEL==\"0000:81:00.1\"").doesNotContain("0000:82:00.0");
        assertThat(p.vmChanges()).extracting(PassthroughPlan.VmChange::hypervisor).containsOnly("proxmox");
        assertThat(p.vmChanges().get(0).snippet()).contains("--id gpu-pve-gpu1-81-00").contains("path=0000:81:00")
                .contains("id=10de:2204").contains("iommugroup=40");
        assertThat(p.vmChanges().get(1).snippet()).contains("hostpciN: mapping=gpu-pve-gpu1-81-00,pcie=1").contains("machine: q35")
                .contains("bios: ovmf").contains("balloon: 0");
    }

    @Test
    void intelGrub() throws Exception {
        PassthroughPlan p = Planner.plan(facts(HostTrees.intelGrub(dir)), a("0000:01:00.0"), PlanOptions.defaults());
        Files.writeString(Path.of("target/plan-intel-grub.diff"), p.edits().stream()
                .map(PassthroughPlan.FileEdit::diff).reduce("", String::concat) + String.join("\n", p.commands()) + "\n");
        PassthroughPlan.FileEdit grub = edit(p, "/etc/default/grub");
        assertThat(grub.after()).contains("GRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash intel_iommu=on iommu=pt\"")
                .contains("GRUB_TIMEOUT=5").contains("GRUB_CMDLINE_LINUX=\"\"");
        assertThat(grub.diff()).contains("-GRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash intel_iommu=on\"")
                .contains("+GRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash intel_iommu=on iommu=pt\"");
        assertThat(edit(p, "/etc/modules").before()).isEmpty();
        assertThat(edit(p, "/etc/modules").after()).isEqualTo("vfio\nvfio_iommu_type1\nvfio_pci\nvfio_virqfd\n");
        String modprobe = edit(p, Planner.MODPROBE_FILE).after();
        assertThat(modprobe).contains("options vfio-pci ids=10de:22bc,10de:2786\n")
                .contains("softdep nvidia pre: vfio-pci\n").contains("softdep snd_hda_intel pre: vfio-pci\n")
                .doesNotContain("blacklist");
        assertThat(p.edits()).noneMatch(e -> e.path().equals(Planner.UDEV_FILE));
        assertThat(p.commands()).containsExactly("update-grub", "update-initramfs -u -k all");
        assertThat(p.vmChanges()).singleElement().satisfies(v -> {
            assertThat(v.hypervisor()).isEqualTo("libvirt");
            assertThat(v.snippet()).contains("<address domain='0x0000' bus='0x01' slot='0x00' function='0x0'/>")
                    .contains("function='0x1'");
        });
    }

    @Test
    void bootGpuGetsSysfbOffAndANote() throws Exception {
        PassthroughPlan p = Planner.plan(facts(HostTrees.bootVga(dir)), a("0000:01:00.0"),
                new PlanOptions(new PassthroughOverrides(false, true), false, Optional.empty()));
        assertThat(edit(p, "/etc/default/grub").after())
                .contains("GRUB_CMDLINE_LINUX_DEFAULT=\"quiet intel_iommu=on iommu=pt initcall_blacklist=sysfb_init\"");
        assertThat(io.gpuforge.testing.English.english(p.notes())).anyMatch(n -> n.contains("boot console"));
    }

    @Test
    void bootGpuIsBlockedWithoutTheOverride() throws Exception {
        HostFacts f = facts(HostTrees.bootVga(dir));
        assertThatThrownBy(() -> Planner.plan(f, a("0000:01:00.0"), PlanOptions.defaults()))
                .isInstanceOf(PlanBlockedException.class).hasMessageContaining("group.host-critical");
    }

    @Test
    void firmwareOffIsBlocked() throws Exception {
        HostFacts f = facts(HostTrees.amdFirmwareOff(dir));
        assertThatThrownBy(() -> Planner.plan(f, a("0000:09:00.0"), PlanOptions.defaults()))
                .isInstanceOf(PlanBlockedException.class).hasMessageContaining("iommu.firmware");
    }

    @Test
    void dracutHost() throws Exception {
        PassthroughPlan p = Planner.plan(facts(HostTrees.noInterruptRemapping(dir)), a("0000:03:00.0"),
                new PlanOptions(PassthroughOverrides.none(), true, Optional.empty()));
        assertThat(edit(p, Planner.DRACUT_FILE).after()).contains("force_drivers+=\" vfio vfio_iommu_type1 vfio_pci \"");
        assertThat(edit(p, Planner.MODPROBE_FILE).after()).contains("blacklist nouveau").contains("options vfio-pci ids=10de:0e1b,10de:0fc6");
        assertThat(p.commands()).contains("dracut -f --regenerate-all");
    }

    @Test
    void mkinitcpioHost() throws Exception {
        PassthroughPlan p = Planner.plan(facts(HostTrees.archMkinitcpio(dir)), a("0000:09:00.0"), PlanOptions.defaults());
        assertThat(edit(p, "/etc/mkinitcpio.conf").after())
                .contains("MODULES=(vfio vfio_iommu_type1 vfio_pci btrfs)").contains("HOOKS=(base udev autodetect)");
        assertThat(edit(p, "/etc/default/grub").after()).contains("GRUB_CMDLINE_LINUX_DEFAULT=\"loglevel=3 quiet iommu=pt\"");
        assertThat(edit(p, Planner.MODPROBE_FILE).after()).contains("softdep nouveau pre: vfio-pci");
        assertThat(p.commands()).contains("mkinitcpio -P");
        assertThat(p.commands().get(0)).as("GRUB on Arch is refreshed with grub-mkconfig").startsWith("grub-mkconfig");
    }

    @Test
    void identicalCardsSplitBetweenHostAndVm() throws Exception {
        PassthroughPlan p = Planner.plan(facts(HostTrees.twoIdenticalGpus(dir)), a("0000:0b:00.0"),
                PlanOptions.defaults());
        assertThat(edit(p, Planner.UDEV_FILE).after()).contains("0000:0b:00.0").contains("0000:0b:00.1")
                .doesNotContain("0000:01:00.0");
        assertThat(io.gpuforge.testing.English.english(p.notes())).anyMatch(n -> n.contains("identical card"));
    }

    @Test
    void aPlanAppliedToTheTreeIsPlannedAgainAsNothingToDo() throws Exception {
        Path root = HostTrees.intelGrub(dir);
        PassthroughPlan first = Planner.plan(facts(root), a("0000:01:00.0"), PlanOptions.defaults());
        assertThat(first.edits()).extracting(PassthroughPlan.FileEdit::path).containsExactly("/etc/default/grub",
                "/etc/modules", Planner.MODPROBE_FILE);
        for (PassthroughPlan.FileEdit e : first.edits()) {
            Path target = root.resolve(e.path().substring(1));
            Files.createDirectories(target.getParent());
            Files.writeString(target, e.after());
        }
        PassthroughPlan again = Planner.plan(facts(root), a("0000:01:00.0"), PlanOptions.defaults());
        assertThat(again.hostChangesNothing()).as("edits: %s", again.edits()).isTrue();
        assertThat(again.commands()).as("no refresh or rebuild without an edit").isEmpty();
        assertThat(again.rebootNeeded()).as("the card is still on nvidia until the reboot").isTrue();
    }

    @Test
    void onlyAKernelArgumentChangeRefreshesTheBootLoaderWithoutRebuildingTheInitramfs() throws Exception {
        Path root = HostTrees.intelGrub(dir);
        PassthroughPlan first = Planner.plan(facts(root), a("0000:01:00.0"), PlanOptions.defaults());
        for (PassthroughPlan.FileEdit e : first.edits()) {
            if (!e.path().equals("/etc/default/grub")) {
                Path target = root.resolve(e.path().substring(1));
                Files.createDirectories(target.getParent());
                Files.writeString(target, e.after());
            }
        }
        PassthroughPlan p = Planner.plan(facts(root), a("0000:01:00.0"), PlanOptions.defaults());
        assertThat(p.edits()).extracting(PassthroughPlan.FileEdit::path).containsExactly("/etc/default/grub");
        assertThat(p.commands()).containsExactly("update-grub");
    }

    @Test
    void kernelArgumentsAreKeptInOrderAndNeverDoubled() {
        assertThat(KernelCmdline.edit("quiet  splash iommu=soft intel_iommu=off", List.of("intel_iommu=on", "iommu=pt"),
                List.of("intel_iommu=off"))).isEqualTo("quiet splash intel_iommu=on iommu=pt");
        assertThat(KernelCmdline.edit("quiet iommu=pt", List.of("iommu=pt"), List.of())).isEqualTo("quiet iommu=pt");
    }
}
