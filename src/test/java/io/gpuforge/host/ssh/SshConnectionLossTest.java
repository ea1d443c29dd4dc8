package io.gpuforge.host.ssh;

import io.gpuforge.host.apply.ApplyException;
import io.gpuforge.host.apply.ApplyState;
import io.gpuforge.host.apply.CommitEnd;
import io.gpuforge.host.apply.HostConfigurator;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.ProbeException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.host.HostChangeState;
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
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SSH connection drops while GPUForge works on a host (a cable pulled, the host going down, sshd restarted): a
 * real sshd-core server on loopback cuts every session in the middle of a command. What the user gets is an error
 * naming the host and the step, never one of Apache MINA's internal exceptions, and an apply cut this way says its
 * commit goes on by itself on the host, what it had done, and how to learn its end.
 */
class SshConnectionLossTest {

    @TempDir
    Path dir;

    private static SshShell connect(SysrootSshServer server, Path dir) throws ProbeException {
        return SshShell.connect(new SshTarget("root", "127.0.0.1", server.port()),
                new SshShell.Credentials(Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(),
                        Optional.empty()), dir.resolve("known_hosts"), HostKeyPolicy.acceptNew(), Duration.ofSeconds(20));
    }

    @Test
    void aConnectionCutWhileACommandRunsSaysWhichHostAndCommand() throws Exception {
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")), dir.resolve("hk"));
             SshShell shell = connect(server, dir)) {
            String host = "root@127.0.0.1:" + server.port();
            assertThatThrownBy(() -> shell.run("echo started; sleep 600", new byte[0], Duration.ofMinutes(15),
                    (line, err) -> {
                        if (line.equals("started")) {
                            server.dropSessions();
                        }
                    }))
                    .isInstanceOf(ProbeException.class)
                    .hasMessageContaining("connection to " + host + " was lost while running 'echo started; sleep 600'");
            assertThat(shell.isOpen()).isFalse();

            assertThatThrownBy(() -> shell.run("cat /proc/cmdline", new byte[0], Duration.ofSeconds(30)))
                    .as("the next command on the dropped session: a checked error, not sshd's IllegalStateException")
                    .isInstanceOf(ProbeException.class)
                    .hasMessageContaining("connection to " + host + " was lost")
                    .hasMessageContaining("'cat /proc/cmdline'");
        }
    }

    /**
     * Cut while update-initramfs runs in the commit: the commit goes on detached on the host (DetachedCommitTest
     * follows it to its end); the report says so, what the commit had done as its status file tells, and how to ask.
     */
    @Test
    void anApplyCutOffDuringTheCommitSaysItContinuesOnTheHostAndWhatItHadDone() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        PassthroughPlan plan = Planner.plan(new HostProbe().probeLocal(Optional.of(root)),
                PciAddress.parse("0000:01:00.0"), PlanOptions.defaults());
        assertThat(plan.commands()).containsExactly("update-grub", "update-initramfs -u -k all");
        HostTrees.toolSwitch(root, "await", "update-initramfs", "on"); // it waits after its first line
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("hk"));
             SshShell shell = connect(server, dir)) {
            HostConfigurator c = new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC());
            ApplyProgress cutDuringInitramfs = new ApplyProgress() {
                @Override
                public void output(Step step, String line, boolean stderr) {
                    if (step.subject().startsWith("update-initramfs")) {
                        server.dropSessions();
                    }
                }
            };
            ApplyException e = assertThrows(ApplyException.class,
                    () -> c.apply(plan, cutDuringInitramfs));
            String host = "root@127.0.0.1:" + server.port();
            assertThat(e.getMessage())
                    .contains("connection to " + host + " was lost while GPUForge followed the commit")
                    .contains("continues on the host by itself")
                    .doesNotContain("half applied")
                    .contains("renamed: /etc/default/grub, /etc/modules, " + Planner.MODPROBE_FILE)
                    .contains("started: update-grub, update-initramfs -u -k all")
                    .contains("gpuforge rollback --status");
            HostChangeState s = e.host().orElseThrow();
            assertThat(s.filesNotRestored()).as("renamed, as the commit's status file says").contains("/etc/default/grub");
            assertThat(s.commandsPending()).contains("update-grub", "update-initramfs -u -k all");
            assertThat(s.journal()).contains(JournalState.COMMITTING);
            assertThat(Files.exists(root.resolve("var/lib/gpuforge/journal.json"))).isTrue();
            Files.writeString(root.resolve(HostTrees.SWITCHES).resolve("seen"), "seen"); // let the commit end
            // and wait for it: it goes on writing below the host's /boot, which this test's directory holds
            assertThat(CommitEnd.await(() -> connect(server, dir)).kind()).as("it went on by itself")
                    .isEqualTo(ApplyState.Kind.APPLIED);
        }
    }
}
