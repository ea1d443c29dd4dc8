package io.gpuforge.host.ssh;

import io.gpuforge.host.ProbeException;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --known-hosts FILE} (or GPUForge's own file on a first start) in a directory that does not exist yet: it is
 * made, private to the user as OpenSSH keeps {@code ~/.ssh}, and the accepted key is remembered there.
 */
class KnownHostsDirectoryTest {

    @TempDir
    Path dir;

    private static SshShell connect(SysrootSshServer server, Path knownHosts, HostKeyPolicy policy)
            throws ProbeException {
        return SshShell.connect(new SshTarget("root", "127.0.0.1", server.port()),
                new SshShell.Credentials(Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(),
                        Optional.empty()), knownHosts, policy, Duration.ofSeconds(20));
    }

    @Test
    void anAcceptedKeyIsWrittenIntoNewPrivateDirectories() throws Exception {
        Path knownHosts = dir.resolve("new/ssh/known_hosts");
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")), dir.resolve("hk"))) {
            try (SshShell shell = connect(server, knownHosts, HostKeyPolicy.acceptNew())) {
                assertThat(shell.run("true", new byte[0], Duration.ofSeconds(30)).exitCode()).isZero();
            }
            assertThat(knownHosts).content().startsWith("[127.0.0.1]:" + server.port() + " ");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("new"))))
                    .isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(knownHosts.getParent())))
                    .isEqualTo("rwx------");
            try (SshShell again = connect(server, knownHosts, (host, type, fingerprint) -> false)) {
                assertThat(again.isOpen()).as("the key is remembered: no question the second time").isTrue();
            }
        }
    }
}
