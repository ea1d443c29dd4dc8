package io.gpuforge.host.ssh;

import io.gpuforge.host.CommandTimeoutException;
import io.gpuforge.host.ConnectionLostException;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.testing.TcpProxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command over SSH to the embedded SSH server behind a faulty network: the server's bytes held back, trickled a
 * byte a second, cut half way, reset, and another host (another host key) behind the same address. Each ends in its
 * own error within the command's deadline; after a stall or a trickle the same session reads again, after a cut a
 * new one does; the changed host key is refused. What each fault gave, and how long it took, is printed for the
 * closing note.
 */
class SshNetworkFaultsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(2);
    /** The command's deadline and a margin for a loaded 2-core machine. */
    private static final long ENDS_WITHIN_MS = DEADLINE.toMillis() + 4000;

    @TempDir
    Path dir;

    private SshShell connect(TcpProxy proxy) throws ProbeException {
        return SshShell.connect(new SshTarget("root", "127.0.0.1", proxy.port()),
                new SshShell.Credentials(Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(),
                        Optional.empty()), dir.resolve("known_hosts"), HostKeyPolicy.acceptNew(), Duration.ofSeconds(20));
    }

    private static String echo(SshShell shell) throws ProbeException {
        HostShell.Result r = shell.run("echo still-here", new byte[0], DEADLINE);
        return new String(r.stdout(), StandardCharsets.UTF_8).strip();
    }

    /** Runs one command under {@code fault}; returns the error it ended in, after checking it ended in time. */
    private static Throwable under(TcpProxy proxy, SshShell shell, TcpProxy.Fault fault) {
        proxy.fault(fault);
        long t0 = System.nanoTime();
        Throwable t = catchThrowable(() -> echo(shell));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        proxy.fault(TcpProxy.Fault.NONE);
        assertThat(t).as(fault + " ends in an error").isInstanceOf(ProbeException.class);
        System.out.printf("ssh fault %-8s -> %s in %,d ms: %s%n", fault, t.getClass().getSimpleName(), ms,
                t.getMessage());
        assertThat(ms).as(fault + " ends within the command's deadline").isLessThan(ENDS_WITHIN_MS);
        return t;
    }

    @Test
    void eachFaultEndsInItsErrorWithinTheDeadlineAndTheHostIsReadAgain() throws Exception {
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")), dir.resolve("hk"));
             TcpProxy proxy = new TcpProxy("127.0.0.1", server.port())) {
            SshShell shell = connect(proxy);
            assertThat(echo(shell)).isEqualTo("still-here");

            Throwable stall = under(proxy, shell, TcpProxy.Fault.STALL);
            assertThat(stall).isInstanceOf(CommandTimeoutException.class)
                    .hasMessageStartingWith("'echo still-here' on root@127.0.0.1:" + proxy.port())
                    .hasMessageMatching("(?s).*did not (start|finish) within 2 s.*");
            assertThat(echo(shell)).as("the same session reads once the network moves again").isEqualTo("still-here");

            Throwable trickle = under(proxy, shell, TcpProxy.Fault.TRICKLE);
            assertThat(trickle).isInstanceOf(CommandTimeoutException.class)
                    .hasMessageMatching("(?s).*did not (start|finish) within 2 s.*");
            assertThat(echo(shell)).isEqualTo("still-here");

            Throwable half = under(proxy, shell, TcpProxy.Fault.HALF);
            assertThat(half).isInstanceOf(ConnectionLostException.class)
                    .hasMessageContaining("connection to root@127.0.0.1:" + proxy.port() + " was lost");
            assertThat(shell.isOpen()).isFalse();
            shell.close();
            shell = connect(proxy);
            assertThat(echo(shell)).as("a new session after the cut").isEqualTo("still-here");

            Throwable reset = under(proxy, shell, TcpProxy.Fault.RESET);
            assertThat(reset).isInstanceOf(ConnectionLostException.class);
            shell.close();
            shell = connect(proxy);
            assertThat(echo(shell)).isEqualTo("still-here");
            shell.close();
        }
    }

    @Test
    void anotherHostKeyBehindTheSameAddressIsRefused() throws Exception {
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")), dir.resolve("hk"));
             SysrootSshServer other = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root2")), dir.resolve("hk2"));
             TcpProxy proxy = new TcpProxy("127.0.0.1", server.port())) {
            try (SshShell shell = connect(proxy)) {
                assertThat(echo(shell)).isEqualTo("still-here");
                proxy.retarget("127.0.0.1", other.port());
                proxy.cut(); // the host was reinstalled and rebooted
                proxy.restore();
                assertThat(catchThrowable(() -> echo(shell))).isInstanceOf(ConnectionLostException.class);
            }
            long t0 = System.nanoTime();
            Throwable t = catchThrowable(() -> connect(proxy));
            System.out.printf("ssh fault %-8s -> %s in %,d ms: %s%n", "host key", t.getClass().getSimpleName(),
                    (System.nanoTime() - t0) / 1_000_000, t.getMessage());
            assertThat(t).isInstanceOf(ProbeException.class).hasMessageContaining("has CHANGED");
            assertThat(other.execChannels()).as("nothing ran on the other host").isZero();
        }
    }
}
