package io.gpuforge.host.apply;

import io.gpuforge.host.ssh.HostKeyPolicy;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.ssh.SshShell;
import io.gpuforge.host.ssh.SshTarget;

import static io.gpuforge.host.apply.HostConfiguratorTest.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scenario 7 of the kernel lab on a real sshd-core server on loopback: the connection is cut in the middle of an
 * apply. Afterwards the host is untouched (cut while the files were staged) or the commit, detached on the host,
 * ends by itself fully applied or restored; the next contact says which.
 */
class DetachedCommitTest {

    @TempDir
    Path dir;

    private static final PciAddress GPU = PciAddress.parse("0000:01:00.0");

    private SshShell connect(SysrootSshServer server) throws ProbeException {
        return SshShell.connect(new SshTarget("root", "127.0.0.1", server.port()),
                new SshShell.Credentials(Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(),
                        Optional.empty()), dir.resolve("known_hosts"), HostKeyPolicy.acceptNew(), Duration.ofSeconds(20));
    }

    private static HostConfigurator on(HostShell shell) {
        return new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC());
    }

    private static PassthroughPlan plan(Path root) throws Exception {
        return Planner.plan(new HostProbe().probeLocal(Optional.of(root)), GPU, PlanOptions.defaults());
    }

    /** The files the plan edits, as they are now (not GPUForge's own state, not the staged copies). */
    private static Map<String, String> targets(Path root, PassthroughPlan p) throws Exception {
        Map<String, String> out = new TreeMap<>();
        for (PassthroughPlan.FileEdit e : p.edits()) {
            Path f = root.resolve(e.path().substring(1));
            out.put(e.path(), Files.exists(f) ? Files.readString(f) : "(absent)");
        }
        return out;
    }

    private static long staged(Path root) throws Exception {
        try (Stream<Path> s = Files.walk(root.resolve("etc"))) {
            return s.filter(x -> x.toString().endsWith(io.gpuforge.host.RemoteFiles.STAGED)).count();
        }
    }

    /** Cuts the connection when the update-initramfs of the commit writes its first line. */
    private static ApplyProgress cutAtInitramfs(SysrootSshServer server) {
        return new ApplyProgress() {
            @Override
            public void output(Step step, String line, boolean stderr) {
                if (step.subject().startsWith("update-initramfs")) {
                    server.dropSessions();
                }
            }
        };
    }

    /** Asks the host (a new connection each time, as a user would) until the commit has ended. */
    private ApplyState waitForTheEnd(SysrootSshServer server) throws Exception {
        return CommitEnd.await(() -> connect(server));
    }

    @Test
    void aCutAfterTheFilesAreStagedLeavesTheHostUntouchedAndTheNextContactSaysSo() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        Map<String, String> original = state(root);
        PassthroughPlan p = plan(root);
        Map<String, String> before = targets(root, p);
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("hk"))) {
            try (SshShell shell = connect(server)) {
                // the new files are staged in one round trip; the cut comes right after it, before the journal says
                // the commit may start
                ApplyProgress cutOnceStaged = new ApplyProgress() {
                    @Override
                    public void finished(Step step, boolean succeeded) {
                        if (step.kind() == Kind.WRITE && succeeded) {
                            server.dropSessions();
                        }
                    }
                };
                ApplyException e = catchThrowableOfType(() -> on(shell).apply(p, cutOnceStaged),
                        ApplyException.class);
                assertThat(e).as("the apply was cut off").isNotNull();
                assertThat(e.getMessage()).contains("was lost").contains("the host is untouched")
                        .doesNotContain("half applied")
                        .as("the staged copies are named as waiting, not as written")
                        .contains("/etc/modules").contains("wait beside them as *.gpuforge-new copies");
                assertThat(staged(root)).as("the staged copies are there until the next contact").isPositive();
                assertThat(e.host().orElseThrow().filesNotRestored()).as("nothing to put back").isEmpty();
            }
            assertThat(targets(root, p)).as("every target byte-identical").isEqualTo(before);
            assertThat(root.resolve("boot/grub/grub.cfg")).content().doesNotContain("iommu=pt");

            try (SshShell again = connect(server)) {
                ApplyState s = on(again).state();
                assertThat(s.kind()).isEqualTo(ApplyState.Kind.ROLLED_BACK);
                assertThat(s.message().orElseThrow()).contains("before it changed any file")
                        .contains("removed the staged copies of /etc/default/grub").contains("untouched");
            }
            assertThat(staged(root)).as("the staged copies removed at the next contact").isZero();
            assertThat(state(root)).isEqualTo(original);
        }
    }

    @Test
    void aCutDuringTheCommitLetsItFinishOnTheHostAndTheNextContactRecordsItApplied() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        PassthroughPlan p = plan(root);
        HostTrees.toolSwitch(root, "await", "update-initramfs", "on"); // waits after its first line until "seen"
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("hk"))) {
            try (SshShell shell = connect(server)) {
                ApplyException e = catchThrowableOfType(() -> on(shell).apply(p, cutAtInitramfs(server)),
                        ApplyException.class);
                assertThat(e).isNotNull();
                assertThat(e.getMessage()).contains("connection to root@127.0.0.1:" + server.port() + " was lost")
                        .contains("continues on the host by itself").contains("/var/lib/gpuforge/commit-")
                        .contains(".status").contains("gpuforge rollback --status")
                        .contains("started: update-grub, update-initramfs -u -k all");
                assertThat(e.host().orElseThrow().journal()).contains(JournalState.COMMITTING);
            }
            try (SshShell again = connect(server)) {
                ApplyState s = on(again).state();
                assertThat(s.kind()).as("update-initramfs still waits on the host").isEqualTo(ApplyState.Kind.RUNNING);
                assertThat(s.message().orElseThrow()).contains("still running").contains("update-initramfs -u -k all");
                assertThatRefused(again, p);
            }
            Files.writeString(root.resolve(HostTrees.SWITCHES).resolve("seen"), "seen"); // it goes on

            ApplyState end = waitForTheEnd(server);
            assertThat(end.kind()).isEqualTo(ApplyState.Kind.APPLIED);
            assertThat(end.message().orElseThrow()).contains("fully applied");
            assertThat(end.journal().orElseThrow().state).isEqualTo(JournalState.APPLIED);
        }
        for (PassthroughPlan.FileEdit e : p.edits()) {
            assertThat(root.resolve(e.path().substring(1))).as("renamed").hasContent(e.after());
        }
        assertThat(root.resolve("boot/grub/grub.cfg")).as("update-grub ran").content().contains("iommu=pt");
        assertThat(root.resolve("boot/initrd.img-5.19.0-41-generic")).as("update-initramfs ran").content()
                .contains("vfio");
        assertThat(staged(root)).isZero();
    }

    private static void assertThatRefused(SshShell shell, PassthroughPlan p) {
        ApplyException apply = catchThrowableOfType(() -> on(shell).apply(p), ApplyException.class);
        assertThat(apply.getMessage()).contains("still running").contains("Nothing was changed");
        ApplyException rollback = catchThrowableOfType(() -> on(shell).rollback(Optional.empty()), ApplyException.class);
        assertThat(rollback.getMessage()).contains("still running").contains("Nothing was changed");
    }

    @Test
    void aCutAndThenAFailingRefreshCommandAreRestoredByTheCommitItself() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        Map<String, String> original = state(root);
        PassthroughPlan p = plan(root);
        HostTrees.toolSwitch(root, "await", "update-initramfs", "on");
        HostTrees.toolSwitch(root, "fail", "update-initramfs", "once"); // exits 1 once it goes on
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("hk"))) {
            try (SshShell shell = connect(server)) {
                ApplyException e = catchThrowableOfType(() -> on(shell).apply(p, cutAtInitramfs(server)),
                        ApplyException.class);
                assertThat(e.getMessage()).contains("continues on the host by itself");
            }
            Files.writeString(root.resolve(HostTrees.SWITCHES).resolve("seen"), "seen");

            ApplyState end = waitForTheEnd(server);
            assertThat(end.kind()).as(end.message().orElse("")).isEqualTo(ApplyState.Kind.ROLLED_BACK);
            assertThat(end.message().orElseThrow()).contains("update-initramfs -u -k all exited 1")
                    .contains("restored /etc/default/grub").contains("re-ran update-grub, update-initramfs -u -k all")
                    .contains("as it was before");
        }
        assertThat(state(root)).as("every target and boot file byte-identical").isEqualTo(original);
        assertThat(staged(root)).isZero();
    }

    @Test
    void aRefreshCommandsExitStatusCountsEvenWhenItsStatusFileCannotBeWritten() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        PassthroughPlan p = plan(root);
        // update-grub leaves a directory where the commit keeps the command's exit status (as a full disk would
        // leave no file): the commit must still learn it ended, not wait for the command's limit
        Path grub = root.resolve("usr/sbin/update-grub");
        String tool = Files.readString(grub);
        int line = tool.indexOf('\n') + 1;
        Files.writeString(grub, tool.substring(0, line) + "for s in \"$(cd -P \"$(dirname \"$0\")/../..\" && pwd -P)\""
                + "/var/lib/gpuforge/commit-*.sh; do mkdir -p \"${s%.sh}.rc\"; done\n" + tool.substring(line));
        HostConfigurator.Limits limits = new HostConfigurator.Limits(Duration.ofSeconds(60), Duration.ofSeconds(45));
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("hk"));
             SshShell shell = connect(server)) {
            var out = new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC(), limits).apply(p);
            assertThat(out.status()).as("applied, not stopped at the 45 s limit").isEqualTo(ApplyOutcome.Status.APPLIED);
            assertThat(out.commandsRun()).contains("update-grub", "update-initramfs -u -k all");
        }
        assertThat(root.resolve("boot/grub/grub.cfg")).content().contains("iommu=pt");
    }
}
