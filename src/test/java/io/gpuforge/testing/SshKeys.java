package io.gpuforge.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.util.concurrent.TimeUnit;
import org.apache.sshd.common.config.keys.PublicKeyEntry;

/** User keys made by the real {@code ssh-keygen}, as admins have them (Ed25519, optionally under a passphrase). */
public final class SshKeys {

    private SshKeys() {
    }

    /** A new Ed25519 key pair at {@code file} (and {@code file.pub}); {@code passphrase} empty for none. */
    public static Path ed25519(Path file, String passphrase) throws IOException, InterruptedException {
        Tools.require("ssh-keygen", "openssh-client");
        Files.createDirectories(file.getParent());
        Process p = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", "gpuforge-test",
                "-f", file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("ssh-keygen failed: " + out);
        }
        return file;
    }

    /** The public half of a key made by {@link #ed25519}. */
    public static PublicKey publicKey(Path privateKey) throws IOException {
        try {
            return PublicKeyEntry.parsePublicKeyEntry(Files.readString(Path.of(privateKey + ".pub")).strip())
                    .resolvePublicKey(null, null, null);
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
    }
}
