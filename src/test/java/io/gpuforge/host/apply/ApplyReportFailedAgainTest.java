package io.gpuforge.host.apply;

import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.TreeShell;

import static io.gpuforge.host.apply.HostConfiguratorTest.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.testing.HostTrees;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel lab's fault "update-initramfs exits 1" (issue 11, finding C): the refresh command fails during the apply
 * and again on the re-run after the restore. It never replaced the initramfs, update-grub re-ran from the restored
 * files: the host boots as before, and the message must say so instead of hedging, while still leaving the journal to
 * 'gpuforge rollback'. On a tree host whose boot tools really rebuild grub.cfg and the initramfs.
 */
class ApplyReportFailedAgainTest {

    @TempDir
    Path dir;

    @Test
    void aRefreshCommandThatFailedInTheApplyAndAgainOnTheReRunIsReportedWithTheOriginalBoot() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        Map<String, String> original = state(root);
        PassthroughPlan p = Planner.plan(new HostProbe().probeLocal(Optional.of(root)), PciAddress.parse("0000:01:00.0"),
                PlanOptions.defaults());
        HostTrees.toolSwitch(root, "fail", "update-initramfs", "always");
        try (TreeShell shell = new TreeShell(root)) {
            HostConfigurator c = new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC());
            ApplyException e = catchThrowableOfType(() -> c.apply(p), ApplyException.class);

            assertThat(state(root)).as("files and boot files as before the apply").isEqualTo(original);
            assertThat(e.getMessage()).as("what the user reads")
                    .contains("update-initramfs -u -k all failed again, as it did during the apply")
                    .contains("still boots with its original settings")
                    .doesNotContain("may still carry the new settings")
                    .contains("gpuforge rollback");
            assertThat(c.journal().orElseThrow().state).as("left for rollback to record").isEqualTo(JournalState.ROLLING_BACK);
        }
    }
}
