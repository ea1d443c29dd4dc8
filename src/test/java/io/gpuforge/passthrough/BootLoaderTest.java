package io.gpuforge.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.host.ProbeText;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which boot loader gets the kernel arguments, picked from what the probe found. */
class BootLoaderTest {

    private static final KernelArguments ARGS = new KernelArguments(List.of("iommu=pt"), List.of("iommu=off"), List.of());
    private static final String GRUB = "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n";

    private static PlanPart plan(HostFacts f) {
        return BootLoader.forHost(f).kernelArguments(f, ARGS);
    }

    @Test
    void grubFilesMeanGrub() throws Exception {
        PlanPart p = plan(new ProbeText().file("/etc/default/grub", GRUB).exists("/usr/sbin/update-grub").facts());
        assertThat(p.edits()).singleElement().satisfies(e -> assertThat(e.path()).isEqualTo("/etc/default/grub"));
        assertThat(p.commands()).containsExactly("update-grub");
    }

    @Test
    void systemdBootWithAKernelCmdlineFileEditsThatFile() throws Exception {
        PlanPart p = plan(new ProbeText().file("/etc/kernel/cmdline", "root=/dev/sda2 quiet\n")
                .exists("/boot/efi/loader/loader.conf").facts());
        assertThat(p.edits()).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("/etc/kernel/cmdline");
            assertThat(e.after()).isEqualTo("root=/dev/sda2 quiet iommu=pt\n");
        });
        assertThat(p.commands()).containsExactly("proxmox-boot-tool refresh");
    }

    @Test
    void proxmoxBootToolDecidesOverGrubFilesLeftBehind() throws Exception {
        PlanPart p = plan(new ProbeText().file("/etc/default/grub", GRUB).file("/etc/kernel/cmdline", "root=ZFS=rpool\n")
                .cmd("proxmox-boot-tool status", "System currently booted with uefi\n"
                        + "2A5B-1C3D is configured with: uefi (versions: 6.8.12-4-pve)\n").facts());
        assertThat(p.edits()).extracting(PassthroughPlan.FileEdit::path).containsExactly("/etc/kernel/cmdline");
        assertThat(p.commands()).containsExactly("proxmox-boot-tool refresh");
    }

    @Test
    void proxmoxBootToolOnGrubEditsGrub() throws Exception {
        PlanPart p = plan(new ProbeText().file("/etc/default/grub", GRUB).file("/etc/kernel/cmdline", "root=ZFS=rpool\n")
                .exists("/usr/sbin/update-grub", "/usr/sbin/proxmox-boot-tool")
                .cmd("proxmox-boot-tool status", "2A5B-1C3D is configured with: grub (versions: 6.8.12-4-pve)\n").facts());
        assertThat(p.edits()).extracting(PassthroughPlan.FileEdit::path).containsExactly("/etc/default/grub");
    }

    @Test
    void anUnknownBootLoaderIsLeftAloneAndTheUserToldWhatToAdd() throws Exception {
        PlanPart p = plan(new ProbeText().file("/proc/cmdline", "root=/dev/vda1\n").facts());
        assertThat(p.edits()).isEmpty();
        assertThat(p.commands()).isEmpty();
        assertThat(io.gpuforge.testing.English.english(p.notes())).containsExactly("The boot loader is unknown: add iommu=pt to the kernel command line yourself.");
    }

    @Test
    void systemdBootWithoutACommandLineFileIsNotGuessed() throws Exception {
        PlanPart p = plan(new ProbeText()
                .cmd("proxmox-boot-tool status", "2A5B-1C3D is configured with: uefi (versions: 6.8.12-4-pve)\n").facts());
        assertThat(p.edits()).isEmpty();
        assertThat(io.gpuforge.testing.English.english(p.notes())).singleElement().satisfies(n -> assertThat(n).contains("add iommu=pt"));
    }
}
