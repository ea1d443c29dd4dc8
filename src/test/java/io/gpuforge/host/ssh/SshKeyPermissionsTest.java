package io.gpuforge.host.ssh;

import io.gpuforge.host.ProbeException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SshKeys;
import io.gpuforge.testing.SysrootSshServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A private key of the user's that group or others can read is not used, as OpenSSH refuses it, whether it is
 * named on the command line or by the config's IdentityFile; the failure says so with OpenSSH's advice.
 */
class SshKeyPermissionsTest {

    @TempDir
    Path dir;

    private SshShell connect(SysrootSshServer server, SshSetup setup, Optional<Path> identity, String host)
            throws ProbeException {
        return SshShell.connect(SshDestination.parse(host), new SshShell.Credentials(Optional.empty(), identity,
                Optional.empty()), setup, HostKeyPolicy.acceptNew(), Duration.ofSeconds(20));
    }

    private SshSetup setup(Optional<Path> config) {
        Path knownHosts = dir.resolve("known_hosts");
        return new SshSetup(config, List.of(), Optional.empty(), List.of(knownHosts), knownHosts);
    }

    @Test
    void aKeyReadableByOthersIsNotOfferedAndTheFailureSaysChmod600() throws Exception {
        Path key = SshKeys.ed25519(dir.resolve("keys/id_ed25519"), "");
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")), dir.resolve("hk"),
                SshKeys.publicKey(key)).refusePasswords()) {
            String host = "root@127.0.0.1:" + server.port();
            for (String mode : List.of("rw-r--r--", "rw-rw----", "rw----r--")) {
                Files.setPosixFilePermissions(key, PosixFilePermissions.fromString(mode));
                assertThatThrownBy(() -> connect(server, setup(Optional.empty()), Optional.of(key), host).close())
                        .as(mode).isInstanceOf(ProbeException.class)
                        .hasMessageContaining("is accessible by others")
                        .hasMessageContaining("chmod 600 " + key);
            }
            assertThat(server.logins()).as("the key was never offered").isEmpty();

            Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
            try (SshShell shell = connect(server, setup(Optional.empty()), Optional.of(key), host)) {
                assertThat(server.logins()).containsExactly("root publickey");
            }
        }
    }

    @Test
    void theConfigsIdentityFileIsHeldToTheSameRule() throws Exception {
        Path key = SshKeys.ed25519(dir.resolve("keys/id_lab"), "");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")), dir.resolve("hk"),
                SshKeys.publicKey(key)).refusePasswords()) {
            Path config = Files.writeString(dir.resolve("config"), String.join("\n", "Host lab", "    HostName 127.0.0.1",
                    "    Port " + server.port(), "    User root", "    IdentityFile " + key, ""));
            assertThatThrownBy(() -> connect(server, setup(Optional.of(config)), Optional.empty(), "lab").close())
                    .isInstanceOf(ProbeException.class).hasMessageContaining("chmod 600 " + key);
            assertThat(server.logins()).isEmpty();
        }
    }
}
