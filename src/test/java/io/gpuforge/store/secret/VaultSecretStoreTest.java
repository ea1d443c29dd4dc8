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
}
