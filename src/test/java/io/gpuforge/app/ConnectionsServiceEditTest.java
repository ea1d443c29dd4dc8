package io.gpuforge.app;

import static io.gpuforge.app.ConnectionsFixture.TOKEN_ID;
import static io.gpuforge.app.ConnectionsFixture.URL_A;
import static io.gpuforge.app.ConnectionsFixture.URL_B;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.app.connections.ConnectionDraft;
import io.gpuforge.app.connections.ConnectionsService;
import io.gpuforge.app.FailingSecretStore.Op;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.store.ConnectionRepository;
import io.gpuforge.store.StoreException;
import io.gpuforge.store.secret.SecretStoreException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Changing a saved connection (name, address, user, fingerprint, secret), all or nothing. */
class ConnectionsServiceEditTest {

    @TempDir
    Path dir;
    private ConnectionsFixture f;
    private ConnectionsService service;

    @BeforeEach
    void open() throws Exception {
        f = new ConnectionsFixture(dir);
        service = f.service;
    }

    @AfterEach
    void close() {
        f.close();
    }

    private ConnectionInfo clusterA() throws Exception {
        return service.addProxmox("A", URL_A, TOKEN_ID, "token-of-a".toCharArray(), Optional.empty());
    }

    @Test
    void anEditChangesNameAddressUserAndFingerprintAndKeepsTheSecret() throws Exception {
        ConnectionInfo a = clusterA();
        ConnectionInfo e = service.edit(a.id(), ConnectionDraft.proxmox(" lab ", URL_B, "svc@pve!inventory",
                Optional.of("AB:CD:EF")), Optional.empty());

        assertThat(f.only()).isEqualTo(e);
        assertThat(e.id()).isEqualTo(a.id());
        assertThat(e.name()).isEqualTo("lab");
        assertThat(e.address()).isEqualTo(URL_B);
        assertThat(e.username()).isEqualTo("svc@pve!inventory");
        assertThat(e.tlsFingerprint()).contains("AB:CD:EF");
        assertThat(e.secretRef()).isEqualTo(a.secretRef());
        assertThat(f.secretOf(e)).isEqualTo("token-of-a");
    }

    @Test
    void anEditWithANewSecretReplacesItAndLeavesNoCopyOfTheOldOne() throws Exception {
        ConnectionInfo a = clusterA();
        ConnectionInfo e = service.edit(a.id(), ConnectionDraft.proxmox("A", URL_A, TOKEN_ID, Optional.empty()),
                Optional.of("token-2".toCharArray()));
        assertThat(f.secretOf(f.only())).isEqualTo("token-2");
        assertThat(f.vault.get(a.secretRef().orElseThrow())).isEmpty();
        ConnectionInfo again = service.edit(a.id(), ConnectionDraft.proxmox("A", URL_A, TOKEN_ID, Optional.empty()),
                Optional.of("token-3".toCharArray()));
        assertThat(f.secretOf(f.only())).isEqualTo("token-3");
        assertThat(f.vault.get(e.secretRef().orElseThrow())).isEmpty();
        assertThat(f.store.names()).containsExactly(again.secretRef().orElseThrow());
    }

    @Test
    void anSshHostCanBeMovedAndGetAPassword() throws Exception {
        ConnectionInfo n = service.addSsh("node1", "root@10.0.0.1", Optional.empty());
        ConnectionInfo e = service.edit(n.id(), ConnectionDraft.ssh("node1", "admin@[fd00::5]:2222"),
                Optional.of("password-1".toCharArray()));
        assertThat(e.address()).isEqualTo("[fd00::5]:2222");
        assertThat(e.username()).isEqualTo("admin");
        assertThat(f.secretOf(e)).isEqualTo("password-1");
    }

    @Test
    void anEditToANameInUseIsRefusedAndChangesNothing() throws Exception {
        ConnectionInfo a = clusterA();
        ConnectionInfo b = service.addProxmox("B", URL_B, TOKEN_ID, "token-of-b".toCharArray(), Optional.empty());
        assertThatThrownBy(() -> service.edit(b.id(), ConnectionDraft.proxmox("A", URL_B, TOKEN_ID, Optional.empty()),
                Optional.of("token-of-b2".toCharArray())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("A connection named 'A' exists already");
        assertThat(service.all()).containsExactly(a, b);
        assertThat(f.secretOf(a)).isEqualTo("token-of-a");
        assertThat(f.secretOf(b)).isEqualTo("token-of-b");
        assertThat(f.store.names()).hasSize(2);
    }

    @Test
    void anEditWhoseNewSecretCannotBeStoredChangesNothing() throws Exception {
        ConnectionInfo a = clusterA();
        f.store.fail(Op.PUT);
        assertThatThrownBy(() -> service.edit(a.id(), ConnectionDraft.proxmox("A", URL_B, TOKEN_ID, Optional.empty()),
                Optional.of("token-2".toCharArray()))).isInstanceOf(SecretStoreException.class);
        f.store.fail();
        f.store.failNext(Op.DELETE);
        assertThatThrownBy(() -> service.edit(a.id(), ConnectionDraft.proxmox("A", URL_B, TOKEN_ID, Optional.empty()),
                Optional.of("token-2".toCharArray()))).isInstanceOf(SecretStoreException.class);
        f.store.fail();
        assertThat(f.only()).isEqualTo(a);
        assertThat(f.secretOf(a)).isEqualTo("token-of-a");
        assertThat(f.store.names()).containsExactly(a.secretRef().orElseThrow());
    }

    @Test
    void anEditTheDatabaseRefusesKeepsTheOldRowAndSecret() throws Exception {
        ConnectionInfo a = clusterA();
        f.failStatements("BEFORE UPDATE OF secret_ref");
        assertThatThrownBy(() -> service.edit(a.id(), ConnectionDraft.proxmox("A2", URL_B, TOKEN_ID, Optional.empty()),
                Optional.of("token-2".toCharArray()))).isInstanceOf(StoreException.class)
                .hasMessageContaining("disk I/O error");
        assertThat(f.only()).isEqualTo(a);
        assertThat(f.secretOf(a)).isEqualTo("token-of-a");
        assertThat(f.store.names()).containsExactly(a.secretRef().orElseThrow());
    }

    @Test
    void anEditWhoseCommitFailsPutsTheOldSecretBack() throws Exception {
        ConnectionInfo a = clusterA();
        f.failCommitsAfter("UPDATE");
        assertThatThrownBy(() -> service.edit(a.id(), ConnectionDraft.proxmox("A2", URL_B, TOKEN_ID, Optional.empty()),
                Optional.of("token-2".toCharArray()))).isInstanceOf(StoreException.class)
                .hasMessageContaining("FOREIGN KEY");
        assertThat(f.only()).isEqualTo(a);
        assertThat(f.secretOf(a)).isEqualTo("token-of-a");
        assertThat(f.store.names()).containsExactly(a.secretRef().orElseThrow());
    }

    @Test
    void afterARenameANewConnectionWithTheOldNameGetsItsOwnSecret() throws Exception {
        ConnectionInfo a = clusterA();
        service.edit(a.id(), ConnectionDraft.proxmox("B", URL_A, TOKEN_ID, Optional.empty()), Optional.empty());
        service.addProxmox("A", URL_B, TOKEN_ID, "token-of-new-a".toCharArray(), Optional.empty());
        assertThat(f.secretOf(f.only("B"))).isEqualTo("token-of-a");
        assertThat(f.secretOf(f.only("A"))).isEqualTo("token-of-new-a");
    }

    @Test
    void aConnectionSavedByAnEarlierVersionCanBeEditedAndItsSecretMovesToItsId() throws Exception {
        ConnectionInfo old = new ConnectionRepository(f.db).add(new ConnectionInfo(0, "old", ConnectionInfo.Kind.PROXMOX,
                URL_A, TOKEN_ID, Optional.of("pve:old:token")));
        f.vault.put("pve:old:token", "legacy-token".toCharArray());

        ConnectionInfo renamed = service.edit(old.id(), ConnectionDraft.proxmox("renamed", URL_A, TOKEN_ID,
                Optional.empty()), Optional.empty());
        assertThat(renamed.secretRef()).contains("pve:old:token");
        assertThat(f.secretOf(renamed)).isEqualTo("legacy-token");

        ConnectionInfo rekeyed = service.edit(old.id(), ConnectionDraft.proxmox("renamed", URL_A, TOKEN_ID,
                Optional.empty()), Optional.of("new-token".toCharArray()));
        assertThat(rekeyed.secretRef()).contains("connection:" + old.id() + ":token");
        assertThat(f.secretOf(rekeyed)).isEqualTo("new-token");
        assertThat(f.vault.get("pve:old:token")).isEmpty();
    }

    @Test
    void aSecretRefSharedByTwoOldRowsStaysUntilTheLastOneGoes() throws Exception {
        ConnectionRepository repo = new ConnectionRepository(f.db);
        ConnectionInfo one = repo.add(new ConnectionInfo(0, "one", ConnectionInfo.Kind.SSH, "10.0.0.1", "root",
                Optional.of("ssh:shared:password")));
        ConnectionInfo two = repo.add(new ConnectionInfo(0, "two", ConnectionInfo.Kind.SSH, "10.0.0.2", "root",
                Optional.of("ssh:shared:password")));
        f.vault.put("ssh:shared:password", "pw".toCharArray());
        service.remove(one.id());
        assertThat(f.secretOf(two)).isEqualTo("pw");
        service.remove(two.id());
        assertThat(f.vault.get("ssh:shared:password")).isEmpty();
    }

    @Test
    void theKindCannotChangeAndAGoneConnectionIsNamed() throws Exception {
        ConnectionInfo n = service.addSsh("node1", "root@10.0.0.1", Optional.empty());
        assertThatThrownBy(() -> service.edit(n.id(), ConnectionDraft.proxmox("node1", URL_A, TOKEN_ID, Optional.empty()),
                Optional.of("t".toCharArray()))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kind cannot change");
        assertThatThrownBy(() -> service.edit(999, ConnectionDraft.ssh("x", "root@h"), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("No saved connection has id 999");
        assertThatThrownBy(() -> service.edit(n.id(), ConnectionDraft.libvirt("node1", "qemu:///system"),
                Optional.empty())).hasMessageContaining("kind cannot change");
        assertThat(f.only()).isEqualTo(n);
    }

    @Test
    void theNewSecretIsWipedWhetherTheEditWorksOrNot() throws Exception {
        ConnectionInfo a = clusterA();
        char[] ok = "token-2".toCharArray();
        service.edit(a.id(), ConnectionDraft.proxmox("A", URL_A, TOKEN_ID, Optional.empty()), Optional.of(ok));
        assertThat(ok).containsOnly('\0');
        char[] refused = "token-3".toCharArray();
        assertThatThrownBy(() -> service.edit(a.id(), ConnectionDraft.ssh("A", "root@h"), Optional.of(refused)));
        assertThat(refused).containsOnly('\0');
    }
}
