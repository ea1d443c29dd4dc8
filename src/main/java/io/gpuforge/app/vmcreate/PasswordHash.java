package io.gpuforge.app.vmcreate;

import io.gpuforge.domain.vm.CloudInit;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;
import org.apache.commons.codec.digest.Sha2Crypt;

/**
 * A VM user's password as the SHA-512 crypt hash that cloud-init ({@code passwd:}) and Proxmox VE
 * ({@code cipassword}) take as it is and {@code /etc/shadow} stores ({@code $6$salt$…}, as glibc's {@code crypt(3)}
 * and {@code openssl passwd -6} make it). The hash itself is Apache Commons Codec's {@link Sha2Crypt}; the salt is 16
 * characters from {@link SecureRandom}. The password is hashed where the user types it and goes no further: not into
 * snippets, seeds, guest files, API calls or logs.
 */
public final class PasswordHash {

    private static final String B64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final int SALT_CHARS = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    private PasswordHash() {
    }

    /** The SHA-512 crypt hash of {@code password} with a fresh random salt; the caller wipes its array. */
    public static String sha512Crypt(char[] password) {
        StringBuilder salt = new StringBuilder("$6$");
        for (int i = 0; i < SALT_CHARS; i++) {
            salt.append(B64.charAt(RANDOM.nextInt(B64.length())));
        }
        ByteBuffer b = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
        byte[] key = new byte[b.remaining()];
        b.get(key);
        Arrays.fill(b.array(), (byte) 0);
        try {
            return Sha2Crypt.sha512Crypt(key, salt.toString());
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /**
     * What a password field or {@code --password-stdin} gave, as the hash: empty for no password, a pasted
     * {@code $6$} hash as it is, else the hash of the text.
     */
    public static Optional<String> of(String typed) {
        if (typed == null || typed.isEmpty()) {
            return Optional.empty();
        }
        if (isSha512Crypt(typed)) {
            return Optional.of(typed);
        }
        char[] chars = typed.toCharArray();
        try {
            return Optional.of(sha512Crypt(chars));
        } finally {
            Arrays.fill(chars, '\0');
        }
    }

    /** Whether {@code text} is already a SHA-512 crypt hash (a user may paste one instead of a password). */
    public static boolean isSha512Crypt(String text) {
        return text != null && CloudInit.SHA512_CRYPT.matcher(text).matches();
    }
}
