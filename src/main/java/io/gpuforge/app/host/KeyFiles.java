package io.gpuforge.app.host;

import io.gpuforge.bounded.BoundedStreams;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/**
 * What GPUForge can tell about an SSH private key file without its passphrase: whether it is encrypted, so that the
 * passphrase is asked for before logging in (instead of a login that fails as if the server had said no). OpenSSH's
 * own format names its cipher ({@code none} when not encrypted); PEM keys say {@code Proc-Type: 4,ENCRYPTED} or
 * {@code BEGIN ENCRYPTED PRIVATE KEY}. Blocking (reads the file).
 */
public final class KeyFiles {

    private static final String OPENSSH = "-----BEGIN OPENSSH PRIVATE KEY-----";
    private static final String OPENSSH_END = "-----END OPENSSH PRIVATE KEY-----";
    private static final byte[] MAGIC = "openssh-key-v1\0".getBytes(StandardCharsets.US_ASCII);
    private static final long MAX_KEY_FILE = 1 << 20;

    private KeyFiles() {
    }

    /** Where OpenSSH keeps a user's keys: {@code ~/.ssh}. */
    public static Path defaultDir() {
        return Path.of(System.getProperty("user.home"), ".ssh");
    }

    /** Whether {@code key} needs a passphrase; an unreadable or foreign file is an IOException naming it. */
    public static boolean encrypted(Path key) throws IOException {
        if (!Files.isRegularFile(key)) {
            throw new IOException("The key file " + key + " does not exist (or is not a file)");
        }
        if (Files.size(key) > MAX_KEY_FILE) {
            throw new IOException("The key file " + key + " is too big to be an SSH private key");
        }
        String text = new String(BoundedStreams.readAll(key, 1 << 20), StandardCharsets.ISO_8859_1);
        if (text.contains("BEGIN ENCRYPTED PRIVATE KEY") || text.contains("Proc-Type: 4,ENCRYPTED")) {
            return true;
        }
        int start = text.indexOf(OPENSSH);
        int end = text.indexOf(OPENSSH_END);
        if (start < 0 || end < start) {
            if (text.contains("PRIVATE KEY-----")) {
                return false;
            }
            throw new IOException("The file " + key + " is not an SSH private key (no BEGIN … PRIVATE KEY line);"
                    + " choose the private key, not the .pub file");
        }
        byte[] body;
        try {
            body = Base64.getMimeDecoder().decode(text.substring(start + OPENSSH.length(), end).strip());
        } catch (IllegalArgumentException e) {
            throw new IOException("The key file " + key + " is damaged (not base64 between its BEGIN and END lines)", e);
        }
        ByteBuffer b = ByteBuffer.wrap(body);
        if (body.length < MAGIC.length + 4 || !ByteBuffer.wrap(body, 0, MAGIC.length).equals(ByteBuffer.wrap(MAGIC))) {
            throw new IOException("The key file " + key + " is damaged (no openssh-key-v1 header)");
        }
        b.position(MAGIC.length);
        int len = b.getInt();
        if (len < 0 || len > b.remaining()) {
            throw new IOException("The key file " + key + " is damaged (its cipher name is cut off)");
        }
        byte[] cipher = new byte[len];
        b.get(cipher);
        return !"none".equals(new String(cipher, StandardCharsets.US_ASCII));
    }
}
