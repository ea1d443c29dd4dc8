package io.gpuforge.host.ssh;

import io.gpuforge.host.ProbeException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.testing.Tools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hashed known_hosts (Debian's and Ubuntu's default, written by the real {@code ssh-keygen -H}) is looked up
 * under the lowercased name, as OpenSSH does: a user who types {@code LocalHost} for a host known as
 * {@code localhost} meets a different key as a changed key (refused), never as an unknown one that
 * {@code --accept-new-host-key} would write down.
 */
class KnownHostsHashedCaseTest {

    @TempDir
    Path dir;

    private SshShell connect(String host, SysrootSshServer server, Path knownHosts, HostKeyPolicy policy)
            throws ProbeException {
        SshSetup setup = new SshSetup(Optional.empty(), List.of(), Optional.empty(), List.of(knownHosts), knownHosts);
        return SshShell.connect(SshDestination.parse("root@" + host + ":" + server.port()),
                new SshShell.Credentials(Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(),
                        Optional.empty()), setup, policy, Duration.ofSeconds(20));
    }

    private void hashedKnownHosts(Path file, String line) throws Exception {
        Tools.require("ssh-keygen", "openssh-client");
        Files.writeString(file, line + "\n");
        Process p = new ProcessBuilder("ssh-keygen", "-H", "-f", file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0).as(out).isTrue();
        assertThat(Files.readString(file)).startsWith("|1|").doesNotContain("localhost");
    }

    @Test
    void aKnownHostTypedInCapitalsIsKnown() throws Exception {
        Path knownHosts = dir.resolve("known_hosts");
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")), dir.resolve("hk"))) {
            hashedKnownHosts(knownHosts, server.knownHostsLine().replace("[127.0.0.1]", "[localhost]"));

            try (SshShell shell = connect("LocalHost", server, knownHosts, HostKeyPolicy.refuseUnknown())) {
                assertThat(shell.run("echo ok", new byte[0], Duration.ofSeconds(10)).stdout()).asString()
                        .isEqualTo("ok\n");
            }
        }
    }

    @Test
    void anotherKeyForAHostTypedInCapitalsIsRefusedAsChangedAndNotWrittenDown() throws Exception {
        Path knownHosts = dir.resolve("known_hosts");
        KeyPair real = KeyUtils.generateKeyPair("ssh-ed25519", 256);
        try (SysrootSshServer impostor = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")), dir.resolve("hk"))) {
            hashedKnownHosts(knownHosts, "[localhost]:" + impostor.port() + " " + PublicKeyEntry.toString(real.getPublic()));
            String before = Files.readString(knownHosts);

            assertThatThrownBy(() -> connect("LOCALHOST", impostor, knownHosts, HostKeyPolicy.acceptNew()).close())
                    .isInstanceOf(ProbeException.class).hasMessageContaining("CHANGED");
            assertThat(Files.readString(knownHosts)).as("the impostor's key is not written down").isEqualTo(before);
            assertThat(impostor.logins()).isEmpty();
        }
    }
}
