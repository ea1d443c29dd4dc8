package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.app.connections.ConnectionDraft;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionOptions;
import io.gpuforge.store.ConnectionRepository;
import io.gpuforge.store.Database;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An SSH host's login choices saved with it (agent, key file, sudo) and its key passphrase kept in the secret store
 * when asked; a Proxmox VE cluster reached with a user's password instead of a token. Real SQLite, real vault.
 */
class ConnectionOptionsTest {

    @TempDir
    Path dir;
    private ConnectionsFixture fx;

    @BeforeEach
    void open() throws Exception {
        fx = new ConnectionsFixture(dir);
    }

    @AfterEach
    void close() {
        fx.close();
    }

    @Test
    void theLoginChoicesOfAnSshHostAreSavedInTheOptionsColumnAndReadBack() throws Exception {
        ConnectionOptions chosen = ConnectionOptions.ssh(false, Optional.of("/home/alice/.ssh/id_lab"), true);
        ConnectionInfo c = fx.service.addSsh("lab", "gpu@10.0.0.5", Optional.empty(), chosen);
        assertThat(c.options()).isEqualTo(chosen);
        assertThat(fx.only().options()).isEqualTo(chosen);
        List<String> columns = fx.db.with(conn -> {
            try (var rs = conn.createStatement().executeQuery("PRAGMA table_info(connection)")) {
                List<String> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(rs.getString("name"));
                }
                return out;
            }
        });
        assertThat(columns).contains("options");
        String stored = fx.db.with(conn -> {
            try (var rs = conn.createStatement().executeQuery("SELECT options FROM connection")) {
                return rs.next() ? rs.getString(1) : null;
            }
        });
        assertThat(stored).contains("\"identityFile\":\"/home/alice/.ssh/id_lab\"").contains("\"sudo\":true");
    }

    @Test
    void editingChangesTheChoicesAndKeepsTheRestOfTheRow() throws Exception {
        ConnectionInfo c = fx.service.addSsh("lab", "gpu@10.0.0.5", Optional.of("pw".toCharArray()),
                ConnectionOptions.ssh(true, Optional.empty(), false));
        ConnectionInfo edited = fx.service.edit(c.id(), ConnectionDraft.ssh("lab", "gpu@10.0.0.5"), Optional.empty(),
                ConnectionOptions.ssh(false, Optional.of("/k"), true));
        assertThat(edited.options()).isEqualTo(ConnectionOptions.ssh(false, Optional.of("/k"), true));
        assertThat(fx.secretOf(edited)).isEqualTo("pw");
    }

    @Test
    void aKeptPassphraseIsStoredUnderTheConnectionsOwnIdAndGoesWithTheKeyOrTheConnection() throws Exception {
        ConnectionOptions withKey = ConnectionOptions.ssh(false, Optional.of("/home/alice/.ssh/id_a"), false);
        ConnectionInfo a = fx.service.addSsh("a", "root@10.0.0.1", Optional.empty(), withKey);
        ConnectionInfo b = fx.service.addSsh("b", "root@10.0.0.2", Optional.empty(), withKey);
        ConnectionInfo kept = fx.service.keepPassphrase(a.id(), "key pass".toCharArray());
        assertThat(kept.options().passphraseRef()).contains("connection:" + a.id() + ":passphrase");
        assertThat(fx.service.passphrase(fx.only("a")).map(String::new)).contains("key pass");
        assertThat(fx.service.passphrase(fx.only("b"))).isEmpty();
        // the same key file: the passphrase stays
        fx.service.edit(a.id(), ConnectionDraft.ssh("a", "root@10.0.0.1"), Optional.empty(), withKey);
        assertThat(fx.service.passphrase(fx.only("a")).map(String::new)).contains("key pass");
        // another key: the old key's passphrase is taken out of the store
        fx.service.edit(a.id(), ConnectionDraft.ssh("a", "root@10.0.0.1"), Optional.empty(),
                ConnectionOptions.ssh(false, Optional.of("/home/alice/.ssh/id_other"), false));
        assertThat(fx.only("a").options().passphraseRef()).isEmpty();
        assertThat(fx.vault.get("connection:" + a.id() + ":passphrase")).isEmpty();
        fx.service.keepPassphrase(b.id(), "b pass".toCharArray());
        fx.service.remove(b.id());
        assertThat(fx.vault.get("connection:" + b.id() + ":passphrase")).isEmpty();
    }

    @Test
    void aPassphraseIsKeptOnlyForSshHostsAndNeverEmpty() throws Exception {
        ConnectionInfo l = fx.service.addLibvirt("kvm", "qemu:///system");
        assertThatThrownBy(() -> fx.service.keepPassphrase(l.id(), "x".toCharArray()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SSH host");
        ConnectionInfo s = fx.service.addSsh("s", "root@h", Optional.empty(), ConnectionOptions.none());
        assertThatThrownBy(() -> fx.service.keepPassphrase(s.id(), new char[0]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> fx.service.add(ConnectionDraft.libvirt("k2", "qemu:///system"), Optional.empty(),
                ConnectionOptions.ssh(true, Optional.empty(), true))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("for SSH hosts");
    }

    @Test
    void aProxmoxClusterCanBeReachedAsAUserWithAPassword() throws Exception {
        ConnectionInfo c = fx.service.addProxmoxUser("pve", URL(), "ops@pve", "s3cret".toCharArray(), Optional.empty());
        assertThat(c.passwordLogin()).isTrue();
        assertThat(c.username()).isEqualTo("ops@pve");
        assertThat(c.secretRef()).contains("connection:" + c.id() + ":password");
        assertThat(fx.secretOf(c)).isEqualTo("s3cret");
        assertThatThrownBy(() -> fx.service.addProxmoxUser("x", URL(), "ops", "p".toCharArray(), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("USER@REALM");
        assertThatThrownBy(() -> fx.service.addProxmoxUser("y", URL(), "ops@pve", new char[0], Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("password");
        // switching to a token changes the kind of secret kept
        ConnectionInfo token = fx.service.edit(c.id(), ConnectionDraft.proxmox("pve", URL(), "ops@pve!gf",
                Optional.empty()), Optional.of("uuid-secret".toCharArray()));
        assertThat(token.passwordLogin()).isFalse();
        assertThat(token.secretRef()).contains("connection:" + c.id() + ":token");
        assertThat(fx.secretOf(token)).isEqualTo("uuid-secret");
    }

    private static String URL() {
        return ConnectionsFixture.URL_A;
    }

    @Test
    void rowsWithoutOptionsOrWithUnreadableOnesReadAsNone() throws Exception {
        ConnectionInfo c = fx.service.addLibvirt("kvm", "qemu:///system");
        fx.sql("UPDATE connection SET options = 'not json' WHERE id = " + c.id());
        assertThat(new ConnectionRepository(fx.db).find(c.id()).orElseThrow().options()).isEqualTo(ConnectionOptions.none());
        fx.sql("UPDATE connection SET options = NULL WHERE id = " + c.id());
        assertThat(fx.only().options().isNone()).isTrue();
    }
}
