package io.gpuforge.host.apply;

import io.gpuforge.host.TreeShell;
import io.gpuforge.host.apply.ApplyException;
import io.gpuforge.host.apply.HostConfigurator;
import io.gpuforge.host.ssh.HostKeyPolicy;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.apply.Journal;
import io.gpuforge.host.ssh.SshShell;
import io.gpuforge.host.ssh.SshTarget;

import static io.gpuforge.host.apply.HostConfiguratorTest.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Refresh commands that take minutes (update-initramfs -u -k all with several kernels and DKMS): their output
 * reaches the user while they run, and one that runs past its limit is reported as unfinished, never rolled back
 * behind the user's back.
 */
class LongCommandsTest {

    @TempDir
    Path dir;

    private static final PciAddress GPU = PciAddress.parse("0000:01:00.0");

    private static PassthroughPlan plan(Path root) throws Exception {
        return Planner.plan(new HostProbe().probeLocal(Optional.of(root)), GPU, PlanOptions.defaults());
    }

    /** Records every call, and checks it comes on the thread that runs the apply. */
    private static final class Recorder implements ApplyProgress {
        final List<String> events = new ArrayList<>();
        final Thread worker = Thread.currentThread();
        private final Path seen;

        Recorder(Path seen) {
            this.seen = seen;
        }

        private void on(String e) {
            assertThat(Thread.currentThread()).as("called on the apply's thread").isSameAs(worker);
            events.add(e);
        }

        @Override
        public void started(Step step) {
            on("start " + step.describe());
        }

        @Override
        public void output(Step step, String line, boolean stderr) {
            on(step.subject() + " | " + line);
            if (seen != null && line.startsWith("update-initramfs: Generating")) {
                try {
                    Files.writeString(seen, "seen");
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }

        @Override
        public void finished(Step step, boolean ok) {
            on((ok ? "ok " : "FAILED ") + step.describe());
        }
    }

    @Test
    void theOutputOfARefreshCommandReachesTheUserWhileItRuns() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        PassthroughPlan p = plan(root);
        // update-initramfs waits until its first line has been seen by the user
        HostTrees.toolSwitch(root, "await", "update-initramfs", "yes");
        Recorder progress = new Recorder(root.resolve(HostTrees.SWITCHES).resolve("seen"));
        try (TreeShell shell = new TreeShell(root)) {
            ApplyOutcome r = new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC())
                    .apply(p, progress);
            assertThat(r.commandsRun()).containsExactly("update-grub", "update-initramfs -u -k all");
        }
        assertThat(progress.events).containsSubsequence("start writing /etc/default/grub", "ok writing /etc/default/grub",
                "start running update-grub", "update-grub | Generating grub configuration file ...", "update-grub | done",
                "ok running update-grub", "start running update-initramfs -u -k all",
                "update-initramfs -u -k all | update-initramfs: Generating the initramfs",
                "update-initramfs -u -k all | I: wrote /boot/initrd.img-5.19.0-41-generic",
                "ok running update-initramfs -u -k all");
    }

    @Test
    void aCommandPastItsLimitIsReportedAsUnfinishedAndNotRolledBack() throws Exception {
        assertThat(HostConfigurator.Limits.defaults().command()).as("generous by default")
                .isGreaterThanOrEqualTo(Duration.ofMinutes(20));
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        Map<String, String> original = state(root);
        PassthroughPlan p = plan(root);
        HostTrees.toolSwitch(root, "hang", "update-initramfs", "yes");
        HostConfigurator.Limits shortLimit = new HostConfigurator.Limits(Duration.ofSeconds(60), Duration.ofSeconds(2));
        try (TreeShell shell = new TreeShell(root)) {
            HostConfigurator c = new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC(), shortLimit);
            ApplyException e = catchThrowableOfType(() -> c.apply(p), ApplyException.class);
            assertThat(e.getMessage()).contains("'update-initramfs -u -k all' did not finish within 2 s")
                    .contains("It was stopped").contains("Nothing was rolled back").contains("gpuforge rollback");
            assertThat(root.resolve("etc/default/grub")).as("not restored behind the user's back").content()
                    .contains("iommu=pt");
            Journal j = c.journal().orElseThrow();
            assertThat(j.state).isEqualTo(JournalState.APPLYING);
            assertThat(j.unfinishedCommand).isEqualTo("update-initramfs -u -k all");
            assertThatThrownBy(() -> c.apply(p)).hasMessageContaining("ran past its time limit")
                    .hasMessageContaining("gpuforge rollback");

            HostTrees.clearSwitches(root);
            new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC()).rollback(Optional.empty());
        }
        assertThat(state(root)).isEqualTo(original);
    }

    /**
     * Over SSH too the limit holds on the host itself: the detached commit stops the command with every process it
     * started (before, over SSH, the command was left running where the connection could not reach it).
     */
    @Test
    void overSshACommandPastItsLimitIsStoppedOnTheHostAndTheUserIsToldSo() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        PassthroughPlan p = plan(root);
        HostTrees.toolSwitch(root, "hang", "update-initramfs", "yes");
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("hk"));
             SshShell shell = SshShell.connect(new SshTarget("root", "127.0.0.1", server.port()),
                     new SshShell.Credentials(Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(),
                             Optional.empty()), dir.resolve("kh"), HostKeyPolicy.acceptNew(), Duration.ofSeconds(20))) {
            HostConfigurator c = new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC(),
                    new HostConfigurator.Limits(Duration.ofSeconds(60), Duration.ofSeconds(2)));
            assertThatThrownBy(() -> c.apply(p)).isInstanceOf(ApplyException.class)
                    .hasMessageContaining("did not finish within 2 s on ssh:root@127.0.0.1")
                    .hasMessageContaining("It was stopped, with every process it started")
                    .hasMessageContaining("Nothing was rolled back");
            assertThat(c.journal().orElseThrow().state).isEqualTo(JournalState.APPLYING);
            assertThat(c.journal().orElseThrow().unfinishedCommand).isEqualTo("update-initramfs -u -k all");
        }
    }
}
