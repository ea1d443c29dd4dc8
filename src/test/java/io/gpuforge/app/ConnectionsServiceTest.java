package io.gpuforge.app;

import static io.gpuforge.app.ConnectionsFixture.TOKEN_ID;
import static io.gpuforge.app.ConnectionsFixture.URL_A;
import static io.gpuforge.app.ConnectionsFixture.URL_B;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

/**
 * Adding and removing saved connections with their secrets, on a real SQLite file and a real vault; failures
 * come from the database itself (triggers, a deferred constraint at commit) and from a keyring test double.
 */
class ConnectionsServiceTest {

    @TempDir
    Path dir;
    private ConnectionsFixture f;
    private ConnectionsService service;
    private FailingSecretStore store;

    @BeforeEach
    void open() throws Exception {
        f = new ConnectionsFixture(dir);
        service = f.service;
        store = f.store;
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void aSecondClusterWithTheSameNameIsRefusedAndTheFirstKeepsItsToken() throws Exception {
        service.addProxmox("A", URL_A, TOKEN_ID, "token-of-a".toCharArray(), Optional.empty());
        assertThatThrownBy(() -> service.addProxmox("A", URL_B, TOKEN_ID, "token-of-b".toCharArray(), Optional.empty()))
                .hasMessageContaining("A connection named 'A' exists already");

        ConnectionInfo a = f.only();
        assertThat(a.address()).isEqualTo(URL_A);
        assertThat(f.secretOf(a)).as("the token GPUForge sends to cluster A").isEqualTo("token-of-a");
        assertThat(store.names()).hasSize(1);
    }

    @Test
    void aSecondSshHostWithTheSameNameIsRefusedAndTheFirstKeepsItsPassword() throws Exception {
        service.addSsh("node1", "root@10.0.0.1", Optional.of("password-1".toCharArray()));
        assertThatThrownBy(() -> service.addSsh(" node1 ", "root@10.0.0.2", Optional.of("password-2".toCharArray())))
                .hasMessageContaining("exists already");
        assertThat(f.secretOf(f.only())).isEqualTo("password-1");
        assertThat(store.names()).hasSize(1);
    }

    @Test
    void aDatabaseThatRefusesTheRowLeavesNoSecretBehind() throws Exception {
        f.failStatements("BEFORE INSERT");
        assertThatThrownBy(() -> service.addProxmox("A", URL_A, TOKEN_ID, "token-of-a".toCharArray(), Optional.empty()))
                .isInstanceOf(StoreException.class).hasMessageContaining("disk I/O error");
        assertThat(service.all()).isEmpty();
        assertThat(store.names()).as("secrets left in the store").isEmpty();
    }

    @Test
    void aDatabaseFailingAfterTheSecretWasStoredTakesTheSecretBackOut() throws Exception {
        f.failStatements("BEFORE UPDATE OF secret_ref");
        assertThatThrownBy(() -> service.addSsh("node1", "root@10.0.0.1", Optional.of("password-1".toCharArray())))
                .isInstanceOf(StoreException.class).hasMessageContaining("disk I/O error");
        assertThat(service.all()).isEmpty();
        assertThat(store.names()).isEmpty();
    }

    @Test
    void aCommitThatFailsLeavesNeitherRowNorSecret() throws Exception {
        f.failCommitsAfter("INSERT");
        assertThatThrownBy(() -> service.addProxmox("A", URL_A, TOKEN_ID, "token-of-a".toCharArray(), Optional.empty()))
                .isInstanceOf(StoreException.class).hasMessageContaining("FOREIGN KEY");
        assertThat(service.all()).isEmpty();
        assertThat(store.names()).isEmpty();
    }

    @Test
    void aSecretStoreThatFailsLeavesNoRow() throws Exception {
        store.fail(Op.PUT);
        assertThatThrownBy(() -> service.addProxmox("A", URL_A, TOKEN_ID, "token-of-a".toCharArray(), Optional.empty()))
                .isInstanceOf(SecretStoreException.class).hasMessageContaining("did not answer");
        assertThat(service.all()).isEmpty();
        store.fail();
        service.addProxmox("A", URL_A, TOKEN_ID, "token-of-a".toCharArray(), Optional.empty());
        assertThat(f.secretOf(f.only())).isEqualTo("token-of-a");
    }

    @Test
    void aLockedVaultRefusesASecretAndSavesNothing() throws Exception {
        f.vault.lock();
        assertThatThrownBy(() -> service.addSsh("node1", "root@10.0.0.1", Optional.of("pw".toCharArray())))
                .isInstanceOf(SecretStoreException.class).hasMessageContaining("unlock");
        assertThat(service.all()).isEmpty();
        service.addSsh("node2", "root@10.0.0.2", Optional.empty());
        assertThat(f.only().secretRef()).isEmpty();
    }

    @Test
    void invalidFieldsAreRefusedBeforeAnythingIsWritten() throws Exception {
        assertThatThrownBy(() -> service.addProxmox("A", URL_A, "root@pam", "t".toCharArray(), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("USER@REALM!TOKENID");
        assertThatThrownBy(() -> service.addProxmox("A", "http://pve-a.lab:8006", TOKEN_ID, "t".toCharArray(),
                Optional.empty())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("https://");
        assertThatThrownBy(() -> service.addProxmox("A", URL_A, TOKEN_ID, new char[0], Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("secret");
        assertThatThrownBy(() -> service.addProxmox(" ", URL_A, TOKEN_ID, "t".toCharArray(), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
        assertThatThrownBy(() -> service.addSsh("n", "root@@host", Optional.of("pw".toCharArray())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("user@host");
        assertThatThrownBy(() -> service.addLibvirt("l", "not a uri")).isInstanceOf(IllegalArgumentException.class);
        assertThat(service.all()).isEmpty();
        assertThat(store.names()).isEmpty();
    }

    @Test
    void theSecretsHandedInAreWipedWhetherTheSaveWorksOrNot() throws Exception {
        char[] token = "token-of-a".toCharArray();
        service.addProxmox("A", URL_A, TOKEN_ID, token, Optional.empty());
        assertThat(token).containsOnly('\0');
        char[] again = "token-of-b".toCharArray();
        assertThatThrownBy(() -> service.addProxmox("A", URL_B, TOKEN_ID, again, Optional.empty()));
        assertThat(again).containsOnly('\0');
        char[] password = "password-1".toCharArray();
        assertThatThrownBy(() -> service.addSsh("n", "root@@host", Optional.of(password)));
        assertThat(password).containsOnly('\0');
    }

    @Test
    void removingAConnectionRemovesItsSecret() throws Exception {
        service.addProxmox("A", URL_A, TOKEN_ID, "token-of-a".toCharArray(), Optional.empty());
        ConnectionInfo b = service.addSsh("B", "root@10.0.0.2", Optional.of("password-b".toCharArray()));
        service.delete(f.only("A"));
        assertThat(service.all()).extracting(ConnectionInfo::name).containsExactly("B");
        assertThat(store.names()).filteredOn(n -> n.startsWith("connection:"))
                .containsExactly(b.secretRef().orElseThrow());
        assertThat(f.secretOf(b)).isEqualTo("password-b");
    }

    @Test
    void removingWhileTheVaultIsLockedIsRefusedAndKeepsBoth() throws Exception {
        ConnectionsService plain = f.onTheVault();
        plain.addProxmox("A", URL_A, TOKEN_ID, "token-of-a".toCharArray(), Optional.empty());
        f.vault.lock();
        assertThatThrownBy(() -> plain.delete(f.only())).isInstanceOf(SecretStoreException.class)
                .hasMessageContaining("unlock");
        assertThat(service.all()).hasSize(1);
        f.vault.unlock(ConnectionsFixture.PASSPHRASE.toCharArray());
        assertThat(f.secretOf(f.only())).isEqualTo("token-of-a");
    }

    @Test
    void aRemoveWhoseSecretCannotBeDeletedKeepsTheConnection() throws Exception {
        service.addProxmox("A", URL_A, TOKEN_ID, "token-of-a".toCharArray(), Optional.empty());
        store.fail(Op.DELETE);
        assertThatThrownBy(() -> service.delete(f.only())).isInstanceOf(SecretStoreException.class);
        store.fail();
        assertThat(f.secretOf(f.only())).isEqualTo("token-of-a");
    }

    @Test
    void aRemoveWhoseCommitFailsKeepsTheConnectionAndItsSecret() throws Exception {
        service.addProxmox("A", URL_A, TOKEN_ID, "token-of-a".toCharArray(), Optional.empty());
        f.failCommitsAfter("DELETE");
        assertThatThrownBy(() -> service.delete(f.only())).isInstanceOf(StoreException.class);
        assertThat(f.secretOf(f.only())).isEqualTo("token-of-a");
    }

    @Test
    void aConnectionSavedByAnEarlierVersionKeepsItsNameBasedSecretUntilRemoved() throws Exception {
        new ConnectionRepository(f.db).add(new ConnectionInfo(0, "old", ConnectionInfo.Kind.PROXMOX, URL_A, TOKEN_ID,
                Optional.of("pve:old:token")));
        f.vault.put("pve:old:token", "legacy-token".toCharArray());

        assertThat(f.only().secretRef()).contains("pve:old:token");
        assertThat(f.secretOf(f.only())).isEqualTo("legacy-token");
        service.addProxmox("new", URL_B, TOKEN_ID, "token-of-new".toCharArray(), Optional.empty());
        assertThat(f.secretOf(f.only("old"))).isEqualTo("legacy-token");

        service.delete(f.only("old"));
        assertThat(f.vault.get("pve:old:token")).isEmpty();
        assertThat(f.secretOf(f.only("new"))).isEqualTo("token-of-new");
    }
}
