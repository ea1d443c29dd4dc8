package io.gpuforge.host.ssh;

import io.gpuforge.host.ProbeException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host key an administrator marked {@code @revoked} is refused with its own message: revoked, where, and
 * nothing to remove (the message for a changed key would tell the user to delete the revocation).
 */
class KnownHostsRevokedTest {

    @TempDir
    Path dir;

    @Test
    void aRevokedKeyIsRefusedAsRevokedNotAsChanged() throws Exception {
        Path knownHosts = dir.resolve("known_hosts");
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")), dir.resolve("hk"))) {
            Files.writeString(knownHosts, "@revoked " + server.knownHostsLine() + "\n");
            String before = Files.readString(knownHosts);
            SshSetup setup = new SshSetup(Optional.empty(), List.of(), Optional.empty(), List.of(knownHosts), knownHosts);

            assertThatThrownBy(() -> SshShell.connect(SshDestination.parse("root@127.0.0.1:" + server.port()),
                    new SshShell.Credentials(Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(),
                            Optional.empty()), setup, HostKeyPolicy.acceptNew(), Duration.ofSeconds(20)).close())
                    .isInstanceOf(ProbeException.class)
                    .hasMessageContaining("revoked by an administrator")
                    .hasMessageContaining(knownHosts.toString())
                    .hasMessageContaining("nothing to remove")
                    .hasMessageNotContaining("CHANGED")
                    .hasMessageNotContaining("remove the old key");
            assertThat(Files.readString(knownHosts)).isEqualTo(before);
            assertThat(server.logins()).isEmpty();
        }
    }
}
