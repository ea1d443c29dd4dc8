package io.gpuforge.host.ssh;

import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.ProbeException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.testing.Tools;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Duration;
import java.util.Optional;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyEncryptionContext;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Private-key login, with keys encrypted under a passphrase (OpenSSH format). */
class SshKeyAuthTest {

    @TempDir
    Path dir;

    private SshShell connect(SysrootSshServer server, Path key, String passphrase) throws ProbeException {
        return SshShell.connect(new SshTarget("root", "127.0.0.1", server.port()),
                new SshShell.Credentials(Optional.empty(), Optional.of(key), Optional.ofNullable(passphrase)
                        .map(String::toCharArray)), dir.resolve("known_hosts"), HostKeyPolicy.acceptNew(), Duration.ofSeconds(20));
    }

    @Test
    void encryptedEcdsaKeyWithItsPassphrase() throws Exception {
        KeyPair kp = KeyUtils.generateKeyPair("ecdsa-sha2-nistp256", 256);
        Path key = dir.resolve("id_ecdsa");
        OpenSSHKeyEncryptionContext ctx = new OpenSSHKeyEncryptionContext();
        ctx.setPassword("correct horse");
        ctx.setCipherName("AES");
        ctx.setCipherMode("CTR");
        ctx.setCipherType("256");
        try (OutputStream out = Files.newOutputStream(key)) {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(kp, "test", ctx, out);
        }
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.readString(key)).contains("BEGIN OPENSSH PRIVATE KEY");
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")), dir.resolve("hk"),
                kp.getPublic())) {
            try (SshShell shell = connect(server, key, "correct horse")) {
                assertThat(new HostProbe().probe(shell, false).pci().gpus()).hasSize(1);
            }
            assertThatThrownBy(() -> connect(server, key, "wrong horse")).isInstanceOf(ProbeException.class);
        }
    }

    @Test
    void ed25519KeyMadeByOpenSsh() throws Exception {
        Tools.require("ssh-keygen", "openssh-client");
        Path key = dir.resolve("id_ed25519");
        Process p = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "pass phrase", "-f", key.toString())
                .redirectErrorStream(true).start();
        assertThat(p.waitFor()).isZero();
        PublicKey pub = PublicKeyEntry.parsePublicKeyEntry(Files.readString(dir.resolve("id_ed25519.pub")).strip())
                .resolvePublicKey(null, null, null);
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")), dir.resolve("hk"), pub);
             SshShell shell = connect(server, key, "pass phrase")) {
            assertThat(shell.run("echo ok", new byte[0], Duration.ofSeconds(10)).stdout()).asString().isEqualTo("ok\n");
        }
    }
}
