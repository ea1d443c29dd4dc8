package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.connections.ConnectionsService;
import io.gpuforge.app.connections.SecretsService;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.store.ConnectionRepository;
import io.gpuforge.store.Database;
import io.gpuforge.store.StoreException;
import io.gpuforge.store.secret.SecretStoreException;
import io.gpuforge.store.secret.VaultSecretStore;
import java.nio.file.Path;
import java.sql.Statement;
import java.util.Optional;

/**
 * A real SQLite database and a real vault in a temp dir, the connections service over them (through a
 * {@link FailingSecretStore} in front of the vault), and ways to make the database fail.
 */
final class ConnectionsFixture implements AutoCloseable {

    static final String URL_A = "https://pve-a.lab:8006";
    static final String URL_B = "https://pve-b.lab:8006";
    static final String TOKEN_ID = "root@pam!gpuforge";
    static final String PASSPHRASE = "correct horse";

    final Database db;
    final VaultSecretStore vault;
    final FailingSecretStore store;
    final ConnectionsService service;

    ConnectionsFixture(Path dir) throws Exception {
        db = Database.open(dir.resolve("gpuforge.db"));
        vault = new VaultSecretStore(dir.resolve("secrets.vault"), 1000);
        vault.create(PASSPHRASE.toCharArray());
        store = new FailingSecretStore(vault);
        service = new ConnectionsService(new ConnectionRepository(db), new SecretsService(Optional.of(store), vault));
    }

    /** The service straight on the vault (no keyring double): the state the window has without a keyring. */
    ConnectionsService onTheVault() {
        return new ConnectionsService(new ConnectionRepository(db), new SecretsService(Optional.empty(), vault));
    }

    ConnectionInfo only() throws StoreException {
        assertThat(service.all()).hasSize(1);
        return service.all().get(0);
    }

    ConnectionInfo only(String name) throws StoreException {
        return service.all().stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no connection named " + name));
    }

    /** The secret GPUForge would send for {@code c}: what its row's ref names in the store. */
    String secretOf(ConnectionInfo c) throws SecretStoreException {
        return vault.get(c.secretRef().orElseThrow(() -> new AssertionError(c.name() + " has no secret")))
                .map(String::new).orElse(null);
    }

    void sql(String... statements) throws StoreException {
        db.with(c -> {
            try (Statement s = c.createStatement()) {
                for (String sql : statements) {
                    s.execute(sql);
                }
            }
            return null;
        });
    }

    /** Every statement of this kind on a connection row fails with SQLite's "disk I/O error" text. */
    void failStatements(String when) throws StoreException {
        sql("CREATE TRIGGER t_refuse " + when + " ON connection BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END");
    }

    /** After the next {@code event} on a connection, its transaction cannot commit (a deferred foreign key). */
    void failCommitsAfter(String event) throws StoreException {
        sql("CREATE TABLE t_parent (id INTEGER PRIMARY KEY)",
                "CREATE TABLE t_child (parent INTEGER REFERENCES t_parent (id) DEFERRABLE INITIALLY DEFERRED)",
                "CREATE TRIGGER t_fail AFTER " + event + " ON connection BEGIN INSERT INTO t_child VALUES (42); END");
    }

    @Override
    public void close() {
        db.close();
    }
}
