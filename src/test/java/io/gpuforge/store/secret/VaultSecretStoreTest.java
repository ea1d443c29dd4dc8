package io.gpuforge.store.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VaultSecretStoreTest {

    private static final int FAST = 2000;

    @TempDir
    Path dir;

    private VaultSecretStore vault() {
        return new VaultSecretStore(dir.resolve("secrets.vault"), FAST);
    }

    @Test
    void secretsSurviveARestartAndNeedThePassphrase() throws Exception {
        VaultSecretStore v = vault();
        v.create("correct horse".toCharArray());
        v.put("pve:lab:token", "3f1c-secret-uuid".toCharArray());
        v.put("ssh:node1:passphrase", "ключ 密钥".toCharArray());

        VaultSecretStore again = vault();
        assertThat(again.isUnlocked()).isFalse();
        assertThatThrownBy(() -> again.get("pve:lab:token")).isInstanceOf(SecretStoreException.class)
                .hasMessageContaining("locked");
        again.unlock("correct horse".toCharArray());
        assertThat(again.get("pve:lab:token")).hasValueSatisfying(c -> assertThat(new String(c)).isEqualTo("3f1c-secret-uuid"));
        assertThat(again.get("ssh:node1:passphrase")).hasValueSatisfying(c -> assertThat(new String(c)).isEqualTo("ключ 密钥"));
        assertThat(again.get("missing")).isEmpty();
        again.delete("pve:lab:token");
        VaultSecretStore third = vault();
        third.unlock("correct horse".toCharArray());
        assertThat(third.get("pve:lab:token")).isEmpty();
    }

    /**
     * A vault put back from a copy (a backup restored, an older file swapped in by someone who cannot read it) is
     * noticed at unlock: its write count, inside the encrypted content, is below the one witnessed beside the
     * settings. The next write makes it the current one; a vault with no witness yet is not blamed.
     */
    @Test
    void aVaultRolledBackToAnOlderCopyIsNoticedAtUnlock() throws Exception {
        java.nio.file.Path file = dir.resolve("data/secrets.vault");
        java.nio.file.Files.createDirectories(file.getParent());
        java.util.Optional<java.nio.file.Path> witness = java.util.Optional.of(dir.resolve("config/vault-generation"));
        VaultSecretStore v = new VaultSecretStore(file, FAST, witness);
        v.create("correct horse".toCharArray());
        v.put("pve-token", "old".toCharArray());
        byte[] backup = java.nio.file.Files.readAllBytes(file);
        v.put("pve-token", "rotated".toCharArray());
        v.put("ssh-password", "new".toCharArray());

        java.nio.file.Files.write(file, backup);
        VaultSecretStore again = new VaultSecretStore(file, FAST, witness);
        again.unlock("correct horse".toCharArray());
        assertThat(again.rolledBack()).get().asString().contains("older than the one last written")
                .contains("2 writes, 4 were made");
        assertThat(new String(again.get("pve-token").orElseThrow())).isEqualTo("old");
        assertThat(again.get("ssh-password")).isEmpty();

        // saved again: current from now on
        again.put("ssh-password", "new".toCharArray());
        assertThat(again.rolledBack()).isEmpty();
        VaultSecretStore later = new VaultSecretStore(file, FAST, witness);
        later.unlock("correct horse".toCharArray());
        assertThat(later.rolledBack()).isEmpty();

        // without a witness (a store made before it, or none given) nothing is claimed
        VaultSecretStore unwitnessed = new VaultSecretStore(file, FAST);
        unwitnessed.unlock("correct horse".toCharArray());
        assertThat(unwitnessed.rolledBack()).isEmpty();
    }

    @Test
    void wrongPassphraseIsRefusedAndTheVaultStaysLocked() throws Exception {
        vault().create("correct horse".toCharArray());
        VaultSecretStore v = vault();
        assertThatThrownBy(() -> v.unlock("wrong horse!".toCharArray())).isInstanceOf(SecretStoreException.class)
                .hasMessageContaining("Wrong master passphrase");
        assertThat(v.isUnlocked()).isFalse();
    }

    @Test
    void theFileHoldsNoPlaintextAndIsOwnerOnly() throws Exception {
        VaultSecretStore v = vault();
        v.create("correct horse".toCharArray());
        v.put("pve:lab:token", "PLAINTEXT-MARKER-1234".toCharArray());
        String file = Files.readString(dir.resolve("secrets.vault"), StandardCharsets.UTF_8);
        assertThat(file).doesNotContain("PLAINTEXT-MARKER").doesNotContain("pve:lab:token").doesNotContain("correct horse");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("secrets.vault"))))
                .isEqualTo("rw-------");
    }

    @Test
    void everyWriteUsesAFreshNonce() throws Exception {
        VaultSecretStore v = vault();
        v.create("correct horse".toCharArray());
        ObjectMapper m = new ObjectMapper();
        String n1 = m.readTree(dir.resolve("secrets.vault").toFile()).get("nonce").asText();
        v.put("a", "b".toCharArray());
        String n2 = m.readTree(dir.resolve("secrets.vault").toFile()).get("nonce").asText();
        assertThat(n2).isNotEqualTo(n1);
    }

    @Test
    void tamperingWithCiphertextOrHeaderIsDetected() throws Exception {
        VaultSecretStore v = vault();
        v.create("correct horse".toCharArray());
        v.put("k", "v".toCharArray());
        Path file = dir.resolve("secrets.vault");
        ObjectMapper m = new ObjectMapper();
        byte[] original = Files.readAllBytes(file);

        ObjectNode doc = (ObjectNode) m.readTree(original);
        byte[] ct = Base64.getDecoder().decode(doc.get("ciphertext").asText());
        ct[0] ^= 1;
        doc.put("ciphertext", Base64.getEncoder().encodeToString(ct));
        Files.write(file, m.writeValueAsBytes(doc));
        assertThatThrownBy(() -> vault().unlock("correct horse".toCharArray()))
                .hasMessageContaining("altered");

        doc = (ObjectNode) m.readTree(original);
        doc.put("iterations", FAST + 1);
        Files.write(file, m.writeValueAsBytes(doc));
        assertThatThrownBy(() -> vault().unlock("correct horse".toCharArray()))
                .hasMessageContaining("altered");

        Files.writeString(file, "{\"format\": \"gpuforge-vault\", \"version\": 1, \"kdf\": \"PBKDF2WithHmacSHA256\", ");
        assertThatThrownBy(() -> vault().unlock("correct horse".toCharArray())).hasMessageContaining("damaged");

        Files.writeString(file, "{\"hello\": 1}");
        assertThatThrownBy(() -> vault().unlock("correct horse".toCharArray())).hasMessageContaining("not a GPUForge vault");
    }

    @Test
    void changingThePassphraseReencrypts() throws Exception {
        VaultSecretStore v = vault();
        v.create("correct horse".toCharArray());
        v.put("k", "value".toCharArray());
        v.changePassphrase("correct horse".toCharArray(), "battery staple".toCharArray());
        assertThatThrownBy(() -> vault().unlock("correct horse".toCharArray())).isInstanceOf(SecretStoreException.class);
        VaultSecretStore w = vault();
        w.unlock("battery staple".toCharArray());
        assertThat(w.get("k")).hasValueSatisfying(c -> assertThat(new String(c)).isEqualTo("value"));
    }

    @Test
    void createRefusesToOverwriteAndShortPassphrases() throws Exception {
        assertThatThrownBy(() -> vault().create("short".toCharArray())).hasMessageContaining("at least 8");
        vault().create("correct horse".toCharArray());
        assertThatThrownBy(() -> vault().create("another one!".toCharArray())).hasMessageContaining("already exists");
    }

    @Test
    void defaultCostIsTheRecommendedPbkdf2Count() throws Exception {
        VaultSecretStore v = new VaultSecretStore(dir.resolve("real.vault"));
        v.create("correct horse".toCharArray());
        assertThat(new ObjectMapper().readTree(dir.resolve("real.vault").toFile()).get("iterations").asInt())
                .isEqualTo(600_000);
    }

    @Test
    void aTamperedIterationCountIsRefusedBeforeAnyKeyIsDerived() throws Exception {
        VaultSecretStore v = vault();
        v.create("correct horse".toCharArray());
        Path file = dir.resolve("secrets.vault");
        ObjectMapper m = new ObjectMapper();
        byte[] original = Files.readAllBytes(file);
        // just above the window first (deriving with it would still end, in seconds), then the hours-long ones
        for (long tampered : new long[] {VaultSecretStore.MAX_ITERATIONS + 1L, Integer.MAX_VALUE, 999, 0, -5,
                10_000_000_000L}) {
            ObjectNode doc = (ObjectNode) m.readTree(original);
            doc.put("iterations", tampered);
            Files.write(file, m.writeValueAsBytes(doc));
            assertThatThrownBy(() -> vault().unlock("correct horse".toCharArray()))
                    .as("iterations %d", tampered)
                    .isInstanceOf(SecretStoreException.class)
                    .hasMessageContaining("damaged")
                    .hasMessageContaining("iteration count")
                    .hasMessageContaining("1000 to " + VaultSecretStore.MAX_ITERATIONS);
        }
        Files.write(file, original);
        vault().unlock("correct horse".toCharArray());
    }

    @Test
    void theIterationWindowHoldsTheDefaultAndTheTestsCount() throws Exception {
        assertThat(VaultSecretStore.MIN_ITERATIONS).isEqualTo(1000);
        assertThat(VaultSecretStore.MAX_ITERATIONS).isGreaterThanOrEqualTo(VaultSecretStore.DEFAULT_ITERATIONS * 5);
        VaultSecretStore low = new VaultSecretStore(dir.resolve("low.vault"), 1000);
        low.create("correct horse".toCharArray());
        low.put("k", "v".toCharArray());
        VaultSecretStore again = new VaultSecretStore(dir.resolve("low.vault"));
        again.unlock("correct horse".toCharArray());
        assertThat(again.get("k")).hasValueSatisfying(c -> assertThat(new String(c)).isEqualTo("v"));
        assertThatThrownBy(() -> new VaultSecretStore(dir.resolve("x.vault"), VaultSecretStore.MAX_ITERATIONS + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too high");
        assertThatThrownBy(() -> new VaultSecretStore(dir.resolve("x.vault"), 999))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too low");
    }

    @Test
    void twoInstancesOnOneFileKeepEachOthersSecrets() throws Exception {
        VaultSecretStore a = vault();
        a.create("correct horse".toCharArray());
        VaultSecretStore b = vault();
        b.unlock("correct horse".toCharArray());

        a.put("connection:1:token", "from-a".toCharArray());
        b.put("connection:2:token", "from-b".toCharArray());
        a.put("connection:3:password", "from-a-again".toCharArray());
        b.delete("connection:1:token");

        VaultSecretStore fresh = vault();
        fresh.unlock("correct horse".toCharArray());
        assertThat(fresh.get("connection:1:token")).isEmpty();
        assertThat(fresh.get("connection:2:token")).hasValueSatisfying(c -> assertThat(new String(c)).isEqualTo("from-b"));
        assertThat(fresh.get("connection:3:password"))
                .hasValueSatisfying(c -> assertThat(new String(c)).isEqualTo("from-a-again"));
    }

    @Test
    void anInstanceReadsWhatAnotherOneWrote() throws Exception {
        VaultSecretStore a = vault();
        a.create("correct horse".toCharArray());
        VaultSecretStore b = vault();
        b.unlock("correct horse".toCharArray());
        a.put("connection:7:token", "added-by-the-cli".toCharArray());
        assertThat(b.get("connection:7:token"))
                .hasValueSatisfying(c -> assertThat(new String(c)).isEqualTo("added-by-the-cli"));
    }

    @Test
    void aPassphraseChangedByAnotherInstanceIsNotUndoneByAStaleOne() throws Exception {
        VaultSecretStore a = vault();
        a.create("correct horse".toCharArray());
        a.put("k", "v".toCharArray());
        VaultSecretStore b = vault();
        b.unlock("correct horse".toCharArray());
        a.changePassphrase("correct horse".toCharArray(), "battery staple".toCharArray());

        assertThatThrownBy(() -> b.put("other", "x".toCharArray())).isInstanceOf(SecretStoreException.class)
                .hasMessageContaining("passphrase was changed").hasMessageContaining("unlock");
        assertThat(b.isUnlocked()).isFalse();
        VaultSecretStore fresh = vault();
        fresh.unlock("battery staple".toCharArray());
        assertThat(fresh.get("k")).hasValueSatisfying(c -> assertThat(new String(c)).isEqualTo("v"));
        assertThat(fresh.get("other")).isEmpty();
    }
}
