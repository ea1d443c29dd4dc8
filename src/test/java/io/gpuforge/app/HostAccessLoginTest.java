package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.app.host.HostAccess;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.host.KnownHosts;
import io.gpuforge.app.host.LoginPrompt;
import io.gpuforge.app.connections.SecretsService;
import io.gpuforge.app.settings.KnownHostsFile;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SshKeys;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.testing.WindowAnswers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A saved SSH host whose key is the user's encrypted default key ({@code ~/.ssh/id_ed25519} of a temp home): the
 * window is asked for the passphrase through {@link LoginPrompt}, may keep it in the secret store, and is not asked
 * again; a wrong passphrase is said to be one, naming the key. Real sshd-core server, real vault and SQLite.
 */
class HostAccessLoginTest {

    @TempDir
    Path dir;

    @Test
    void theWindowIsAskedForThePassphraseOnceAndItIsRemembered() throws Exception {
        Path ssh = Files.createDirectories(dir.resolve("home/.ssh"));
        Path key = SshKeys.ed25519(ssh.resolve("id_ed25519"), "right phrase");
        try (ConnectionsFixture f = new ConnectionsFixture(dir.resolve("app"));
             SysrootSshServer server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")), dir.resolve("hk"))
                     .authorize(SshKeys.publicKey(key)).refusePasswords()) {
            SecretsService secrets = new SecretsService(Optional.empty(), f.vault);
            HostAccess access = new HostAccess(Optional.empty(), secrets, f.service, null,
                    () -> KnownHosts.of(Optional.of(ssh.resolve("known_hosts")), dir.resolve("app/known_hosts"),
                            KnownHostsFile.OPENSSH), Optional.of(ssh), Map.of());
            ConnectionInfo lab = f.service.addSsh("lab", "root@127.0.0.1:" + server.port(), Optional.empty());

            WindowAnswers first = new WindowAnswers("right phrase", true);
            try (HostAccess.Opened o = access.open(new HostTarget.Saved(lab), first)) {
                assertThat(o.shell().run("true", new byte[0], Duration.ofSeconds(30)).exitCode()).isZero();
            }
            assertThat(first.asked).containsExactly("trust 127.0.0.1", "passphrase " + key, "remember " + key);
            String ref = f.service.find(lab.id()).orElseThrow().options().passphraseRef().orElseThrow(
                    () -> new AssertionError("the remembered passphrase is recorded on its connection"));
            assertThat(f.vault.get(ref).map(String::new)).contains("right phrase");

            WindowAnswers second = new WindowAnswers("not asked", false);
            try (HostAccess.Opened o = access.open(new HostTarget.Saved(lab), second)) {
                assertThat(o.shell().run("true", new byte[0], Duration.ofSeconds(30)).exitCode()).isZero();
            }
            assertThat(second.asked).as("the host key and the passphrase are both remembered").isEmpty();
            assertThat(server.logins()).containsExactly("root publickey", "root publickey");

            f.service.remove(lab.id());
            assertThat(f.vault.get(ref)).as("the passphrase goes with its connection").isEmpty();
            assertThat(f.vault.get("connection:" + lab.id() + ":key-passphrase")).isEmpty();
        }
    }

    @Test
    void aWrongPassphraseIsSaidToBeOneNotARefusal() throws Exception {
        Path ssh = Files.createDirectories(dir.resolve("home/.ssh"));
        Path key = SshKeys.ed25519(ssh.resolve("id_ed25519"), "right phrase");
        try (ConnectionsFixture f = new ConnectionsFixture(dir.resolve("app"));
             SysrootSshServer server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")), dir.resolve("hk"))
                     .authorize(SshKeys.publicKey(key)).refusePasswords()) {
            HostAccess access = new HostAccess(Optional.empty(), new SecretsService(Optional.empty(), f.vault),
                    f.service, null, () -> new KnownHosts(dir.resolve("known_hosts")), Optional.of(ssh), Map.of());
            ConnectionInfo lab = f.service.addSsh("lab", "root@127.0.0.1:" + server.port(), Optional.empty());
            WindowAnswers wrong = new WindowAnswers("wrong phrase", true);
            assertThatThrownBy(() -> access.open(new HostTarget.Saved(lab), wrong))
                    .isInstanceOf(HostException.class)
                    .hasMessageContaining("the key " + key + " could not be decrypted: wrong passphrase")
                    .hasMessageNotContaining("wrong password or key");
            assertThat(wrong.asked).as("asked three times, then for a password, as ssh does").containsExactly(
                    "trust 127.0.0.1", "passphrase " + key, "passphrase " + key + " again",
                    "passphrase " + key + " again", "password root@127.0.0.1:" + server.port());
            assertThat(f.service.find(lab.id()).orElseThrow().options().passphraseRef()).as("nothing wrong is remembered")
                    .isEmpty();
            assertThat(f.vault.get("connection:" + lab.id() + ":passphrase")).isEmpty();
        }
    }
}
