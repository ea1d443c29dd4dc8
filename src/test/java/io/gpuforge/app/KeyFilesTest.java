package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.app.host.KeyFiles;
import io.gpuforge.testing.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Telling an encrypted SSH key from a plain one, with keys made by OpenSSH's own ssh-keygen. */
class KeyFilesTest {

    @TempDir
    Path dir;

    private Path keygen(String name, String type, String passphrase, boolean pem) throws Exception {
        Tools.require("ssh-keygen", "openssh-client");
        Path key = dir.resolve(name);
        ProcessBuilder pb = pem ? new ProcessBuilder("ssh-keygen", "-q", "-t", type, "-m", "PEM", "-N", passphrase, "-f",
                key.toString()) : new ProcessBuilder("ssh-keygen", "-q", "-t", type, "-N", passphrase, "-f", key.toString());
        assertThat(pb.redirectErrorStream(true).start().waitFor()).isZero();
        return key;
    }

    @Test
    void openSshKeysSayWhetherTheyAreEncrypted() throws Exception {
        assertThat(KeyFiles.encrypted(keygen("enc", "ed25519", "pass phrase", false))).isTrue();
        assertThat(KeyFiles.encrypted(keygen("plain", "ed25519", "", false))).isFalse();
    }

    @Test
    void pemKeysSayWhetherTheyAreEncrypted() throws Exception {
        assertThat(KeyFiles.encrypted(keygen("rsa-enc", "rsa", "pass phrase", true))).isTrue();
        assertThat(KeyFiles.encrypted(keygen("rsa-plain", "rsa", "", true))).isFalse();
    }

    @Test
    void aPublicKeyOrAMissingFileIsRefusedWithWhatToChooseInstead() throws Exception {
        keygen("k", "ed25519", "", false);
        assertThatThrownBy(() -> KeyFiles.encrypted(dir.resolve("k.pub"))).isInstanceOf(IOException.class)
                .hasMessageContaining("not the .pub file");
        assertThatThrownBy(() -> KeyFiles.encrypted(dir.resolve("none"))).isInstanceOf(IOException.class)
                .hasMessageContaining("does not exist");
        Path broken = Files.writeString(dir.resolve("broken"), "-----BEGIN OPENSSH PRIVATE KEY-----\n!!!\n"
                + "-----END OPENSSH PRIVATE KEY-----\n");
        assertThatThrownBy(() -> KeyFiles.encrypted(broken)).isInstanceOf(IOException.class).hasMessageContaining("damaged");
    }
}
