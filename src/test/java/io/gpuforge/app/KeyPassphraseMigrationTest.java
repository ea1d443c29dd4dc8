package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.store.ConnectionRepository;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vaults of users of earlier versions hold key passphrases under {@code connection:<id>:key-passphrase}, also for
 * connections removed since. On first use the one of a saved host moves to the name recorded on it (and still
 * logs in without asking), and the orphans are deleted. Real SQLite and a real vault.
 */
class KeyPassphraseMigrationTest {

    @TempDir
    Path dir;

    @Test
    void aKeptPassphraseMovesToItsConnectionAndOrphansAreDeleted() throws Exception {
        try (ConnectionsFixture f = new ConnectionsFixture(dir)) {
            ConnectionInfo lab = f.service.addSsh("lab", "root@lab.example", Optional.empty());
            ConnectionInfo gone = f.service.addSsh("gone", "root@gone.example", Optional.empty());
            ConnectionInfo last = f.service.addSsh("last", "root@last.example", Optional.empty());
            // what an earlier version left: passphrases under the old name, one of a connection removed since
            f.vault.put("connection:" + lab.id() + ":key-passphrase", "lab phrase".toCharArray());
            f.vault.put("connection:" + gone.id() + ":key-passphrase", "gone phrase".toCharArray());
            f.vault.put("connection:" + last.id() + ":key-passphrase", "last phrase".toCharArray());
            new ConnectionRepository(f.db).delete(gone.id());
            new ConnectionRepository(f.db).delete(last.id());

            var upgraded = f.onTheVault();
            assertThat(upgraded.passphrase(lab.id()).map(String::new)).contains("lab phrase");

            assertThat(upgraded.find(lab.id()).orElseThrow().options().passphraseRef())
                    .contains("connection:" + lab.id() + ":passphrase");
            for (ConnectionInfo c : new ConnectionInfo[] {lab, gone, last}) {
                assertThat(f.vault.get("connection:" + c.id() + ":key-passphrase")).as(c.name()).isEmpty();
            }
            upgraded.remove(lab.id());
            assertThat(f.vault.get("connection:" + lab.id() + ":passphrase")).isEmpty();
        }
    }
}
