package io.gpuforge.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.diagnose.FixPlan;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.testing.HostTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A diagnosis's fix as a host plan, on the sysroot hosts: each file, its command, and nothing once it is there. */
class FixPlannerTest {

    @TempDir
    Path dir;

    private static HostFacts facts(Path root) throws Exception {
        return new HostProbe().probeLocal(Optional.of(root));
    }

    private static PassthroughPlan.FileEdit edit(PassthroughPlan p, String path) {
        return p.edits().stream().filter(e -> e.path().equals(path)).findFirst()
                .orElseThrow(() -> new AssertionError("no edit of " + path + " in " + p.edits()));
    }

    @Test
    void aKernelArgumentGoesThroughTheHostsBootLoader() throws Exception {
        Path root = HostTrees.intelGrub(dir);
        PassthroughPlan p = FixPlanner.plan(facts(root), "framebuffer-bar",
                FixPlan.kernelArguments("initcall_blacklist=sysfb_init"), List.of());
        assertThat(edit(p, "/etc/default/grub").after())
                .contains("GRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash intel_iommu=on initcall_blacklist=sysfb_init\"");
        assertThat(p.edits()).hasSize(1);
        assertThat(p.commands()).containsExactly("update-grub");
        assertThat(p.rebootNeeded()).isTrue();
        assertThat(p.id()).startsWith("fix-");
    }

    @Test
    void modprobeAndUdevGoToTheFixFilesAndTheInitramfsIsRebuilt() throws Exception {
        Path root = HostTrees.intelGrub(dir);
        FixPlan fix = FixPlan.modprobe("options vfio-pci disable_idle_d3=1").withUdevRules(List.of(
                "ACTION==\"add\", SUBSYSTEM==\"pci\", KERNEL==\"0000:04:00.0\", ATTR{d3cold_allowed}=\"0\""));
        PassthroughPlan p = FixPlanner.plan(facts(root), "power-state", fix, List.of(PciAddress.parse("0000:04:00.0")));
        assertThat(edit(p, FixPlanner.MODPROBE_FILE).before()).isEmpty();
        assertThat(edit(p, FixPlanner.MODPROBE_FILE).after())
                .isEqualTo("# Written by GPUForge to fix power-state\noptions vfio-pci disable_idle_d3=1\n");
        assertThat(edit(p, FixPlanner.UDEV_FILE).after()).contains("ATTR{d3cold_allowed}=\"0\"");
        assertThat(p.commands()).containsExactly("update-initramfs -u -k all");
        assertThat(p.functions()).as("nothing bound by this fix: verify does not look for vfio-pci").isEmpty();
        assertThat(p.edits()).noneMatch(e -> e.path().equals("/etc/default/grub"));

        // once the files are on the host, the same fix plans nothing; another cause adds its lines below
        for (PassthroughPlan.FileEdit e : p.edits()) {
            Path f = root.resolve(e.path().substring(1));
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.after());
        }
        PassthroughPlan again = FixPlanner.plan(facts(root), "power-state", fix, List.of());
        assertThat(again.edits()).isEmpty();
        assertThat(again.rebootNeeded()).isFalse();
        PassthroughPlan other = FixPlanner.plan(facts(root), "group-not-viable",
                FixPlan.modprobe("options vfio-pci ids=1002:67df,1002:aaf0", "options vfio-pci disable_idle_d3=1"),
                List.of(PciAddress.parse("0000:04:00.0"), PciAddress.parse("0000:04:00.1")));
        assertThat(edit(other, FixPlanner.MODPROBE_FILE).after()).isEqualTo("# Written by GPUForge to fix power-state\n"
                + "options vfio-pci disable_idle_d3=1\n# Written by GPUForge to fix group-not-viable\n"
                + "options vfio-pci ids=1002:67df,1002:aaf0\n");
        assertThat(other.functions()).as("a fix that binds by ids is verified on vfio-pci").hasSize(2);
    }

    @Test
    void commandsAreListedForTheUserNotRun() throws Exception {
        FixPlan fix = new FixPlan(List.of(), List.of(), List.of(), List.of(),
                List.of("apt install dkms pve-headers"));
        PassthroughPlan p = FixPlanner.plan(facts(HostTrees.intelGrub(dir)), "reset-bug", fix, List.of());
        assertThat(p.commands()).isEmpty();
        assertThat(p.edits()).isEmpty();
        assertThat(io.gpuforge.testing.English.english(p.notes())).containsExactly("By hand (GPUForge does not run it): apt install dkms pve-headers");
    }
}
