package io.gpuforge.host.apply;

import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.TreeShell;

import static io.gpuforge.host.apply.HostConfiguratorTest.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.testing.HostTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a failure the boot loader must not be left carrying what the restored files no longer say: the refresh
 * commands (update-grub, proxmox-boot-tool refresh…) that had run are re-run after the files are restored, and a
 * rollback is recorded as done only when its commands succeeded. On tree hosts whose boot tools really rebuild
 * grub.cfg, the initramfs and the systemd-boot entry from the configuration.
 */
class ApplyRecoveryTest {

    @TempDir
    Path dir;

    private static final PciAddress GPU = PciAddress.parse("0000:01:00.0");

    private static PassthroughPlan plan(Path root) throws Exception {
        return Planner.plan(new HostProbe().probeLocal(Optional.of(root)), GPU, PlanOptions.defaults());
    }

    private static HostConfigurator on(HostShell shell) {
        return new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC());
    }

    private static String grubCfg(Path root) throws Exception {
        return Files.readString(root.resolve("boot/grub/grub.cfg"));
    }

    @Test
    void aFailedApplyReRunsTheRefreshCommandsThatHadAlreadyRun() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        Map<String, String> original = state(root);
        PassthroughPlan p = plan(root);
        assertThat(p.commands()).containsExactly("update-grub", "update-initramfs -u -k all");
        HostTrees.toolSwitch(root, "fail", "update-initramfs", "once");
        try (TreeShell shell = new TreeShell(root)) {
            ApplyException e = catchThrowableOfType(() -> on(shell).apply(p), ApplyException.class);
            assertThat(e).as("the apply fails at update-initramfs").isNotNull();
            assertThat(grubCfg(root)).as("update-grub ran again after the restore").doesNotContain("iommu=pt");
            assertThat(state(root)).as("files and boot files as before the apply").isEqualTo(original);
            assertThat(e.getMessage()).contains("update-initramfs").contains("re-ran update-grub")
                    .contains("/etc/default/grub").contains("as it was before");
            assertThat(on(shell).journal().orElseThrow().state).isEqualTo(JournalState.ROLLED_BACK);
        }
    }

    @Test
    void aRefreshCommandThatFailsAgainAfterTheRestoreIsReportedAndLeftToRollback() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        Map<String, String> original = state(root);
        PassthroughPlan p = plan(root);
        HostTrees.toolSwitch(root, "fail", "update-initramfs", "always");
        try (TreeShell shell = new TreeShell(root)) {
            ApplyException e = catchThrowableOfType(() -> on(shell).apply(p), ApplyException.class);
            assertThat(e.getMessage()).doesNotContain("every file was restored").doesNotContain("as it was before")
                    .contains("re-ran update-grub").contains("update-initramfs -u -k all failed")
                    .contains("gpuforge rollback");
            assertThat(grubCfg(root)).doesNotContain("iommu=pt");
            assertThat(on(shell).journal().orElseThrow().state).as("left for rollback to finish")
                    .isEqualTo(JournalState.ROLLING_BACK);
            assertThatThrownBy(() -> on(shell).apply(p)).hasMessageContaining("gpuforge rollback");

            HostTrees.clearSwitches(root);
            ApplyOutcome back = on(shell).rollback(Optional.empty());
            assertThat(back.status()).isEqualTo(ApplyOutcome.Status.ROLLED_BACK);
            assertThat(back.commandsRun()).as("only what was still needed").containsExactly("update-initramfs -u -k all");
            assertThat(state(root)).isEqualTo(original);
        }
    }

    @Test
    void rollbackIsRecordedAsDoneOnlyWhenItsCommandsSucceeded() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.proxmoxSystemdBoot(dir.resolve("pve")));
        Map<String, String> original = state(root);
        PassthroughPlan p = Planner.plan(new HostProbe().probeLocal(Optional.of(root)), PciAddress.parse("0000:81:00.0"),
                PlanOptions.defaults());
        assertThat(p.commands()).contains("proxmox-boot-tool refresh");
        try (TreeShell shell = new TreeShell(root)) {
            ApplyOutcome applied = on(shell).apply(p);
            assertThat(applied.commandsRun()).isEqualTo(p.commands());
            Path entry = root.resolve("boot/efi/loader/entries/proxmox-6.8.12-4-pve.conf");
            assertThat(entry).content().contains("iommu=pt");

            HostTrees.toolSwitch(root, "fail", "proxmox-boot-tool", "always");
            assertThatThrownBy(() -> on(shell).rollback(Optional.empty())).isInstanceOf(ApplyException.class)
                    .hasMessageContaining("proxmox-boot-tool refresh failed").hasMessageContaining("gpuforge rollback");
            assertThat(on(shell).journal().orElseThrow().state).isNotEqualTo(JournalState.ROLLED_BACK);
            assertThat(entry).as("the boot entry still has the arguments: not done").content().contains("iommu=pt");

            HostTrees.clearSwitches(root);
            ApplyOutcome again = on(shell).rollback(Optional.empty());
            assertThat(again.status()).as("run again, it finishes the job").isEqualTo(ApplyOutcome.Status.ROLLED_BACK);
            assertThat(again.commandsRun()).contains("proxmox-boot-tool refresh");
            assertThat(entry).content().doesNotContain("iommu=pt");
            assertThat(state(root)).isEqualTo(original);
            assertThat(on(shell).rollback(Optional.empty()).status()).isEqualTo(ApplyOutcome.Status.NOTHING_TO_DO);
        }
    }
}
