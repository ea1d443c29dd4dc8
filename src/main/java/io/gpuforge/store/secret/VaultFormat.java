package io.gpuforge.store.secret;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The vault file's format: a JSON header (format, version, KDF, iterations, salt, nonce) and one AES-256-GCM
 * ciphertext of the JSON map of secrets, with the header bound to it as associated data. Secrets are handled
 * as {@code char[]} that callers wipe; the plaintext bytes are wiped here. (Jackson's own parse and write
 * buffers hold a transient copy that cannot be wiped from outside.)
 */
final class VaultFormat {

    static final String FORMAT = "gpuforge-vault";
    static final int VERSION = 1;
    /** A vault holds a few hundred secrets at most: far less than this. */
    static final long MAX_VAULT_BYTES = 16L << 20;
    static final String KDF = "PBKDF2WithHmacSHA256";
    private static final int TAG_BITS = 128;

    private VaultFormat() {
    }

    /** What the file says before decryption. */
    static final class Header {
        final int iterations;
        final byte[] salt;
        final byte[] nonce;
        final byte[] ciphertext;

        Header(int iterations, byte[] salt, byte[] nonce, byte[] ciphertext) {
            this.iterations = iterations;
            this.salt = salt;
            this.nonce = nonce;
            this.ciphertext = ciphertext;
        }
    }

    /**
     * Reads and checks the header. The iteration count is checked against the accepted window before any key
     * is derived with it: a tampered count would otherwise make unlocking run for hours.
     */
    static Header read(Path file, ObjectMapper mapper) throws SecretStoreException {
        Map<String, Object> doc;
        try {
            doc = mapper.readValue(io.gpuforge.bounded.BoundedStreams.readAll(file, MAX_VAULT_BYTES), new TypeReference<Map<String, Object>>() { });
        } catch (NoSuchFileException e) {
            throw new SecretStoreException("No vault has been set up yet at " + file, e);
        } catch (IOException e) {
            throw new SecretStoreException("The vault file " + file + " is damaged (not valid JSON)", e);
        }
        if (doc == null || !FORMAT.equals(doc.get("format"))) {
            throw new SecretStoreException("The file " + file + " is not a GPUForge vault");
        }
        if (!Integer.valueOf(VERSION).equals(doc.get("version")) || !KDF.equals(doc.get("kdf"))) {
            throw new SecretStoreException("The vault " + file + " uses a format this GPUForge does not know");
        }
        Object it = doc.get("iterations");
        if (!(it instanceof Integer) || (Integer) it < VaultSecretStore.MIN_ITERATIONS
                || (Integer) it > VaultSecretStore.MAX_ITERATIONS) {
            throw new SecretStoreException("The vault file " + file + " is damaged (iteration count " + it
                    + " is outside the accepted " + VaultSecretStore.MIN_ITERATIONS + " to "
                    + VaultSecretStore.MAX_ITERATIONS + "): restore the file from a backup");
        }
        Header h;
        try {
            h = new Header((Integer) it, Base64.getDecoder().decode(String.valueOf(doc.get("salt"))),
                    Base64.getDecoder().decode(String.valueOf(doc.get("nonce"))),
                    Base64.getDecoder().decode(String.valueOf(doc.get("ciphertext"))));
        } catch (IllegalArgumentException e) {
            throw new SecretStoreException("The vault file " + file + " is damaged (bad Base64)", e);
        }
        if (h.salt.length < 16 || h.nonce.length != 12 || h.ciphertext.length < TAG_BITS / 8) {
            throw new SecretStoreException("The vault file " + file + " is damaged (field sizes)");
        }
        return h;
    }

    static SecretKey derive(char[] passphrase, byte[] salt, int iterations) throws SecretStoreException {
        PBEKeySpec spec = new PBEKeySpec(passphrase, salt, iterations, 256);
        try {
            byte[] raw = SecretKeyFactory.getInstance(KDF).generateSecret(spec).getEncoded();
            try {
                return new SecretKeySpec(raw, "AES");
            } finally {
                Arrays.fill(raw, (byte) 0);
            }
        } catch (GeneralSecurityException e) {
            throw new SecretStoreException("This Java runtime cannot derive vault keys (" + KDF + ")", e);
        } finally {
            spec.clearPassword();
        }
    }

    /** The secrets in the file; the caller wipes them ({@link #wipe}). */
    static TreeMap<String, char[]> decrypt(SecretKey key, Header h, Path file, ObjectMapper mapper)
            throws SecretStoreException {
        byte[] plain = null;
        TreeMap<String, char[]> out = new TreeMap<>();
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, h.nonce));
            c.updateAAD(aad(h.iterations, h.salt));
            plain = c.doFinal(h.ciphertext);
            parse(plain, out, mapper);
            return out;
        } catch (AEADBadTagException e) {
            throw new SecretStoreException("Wrong master passphrase, or the vault file was altered");
        } catch (GeneralSecurityException | IOException e) {
            wipe(out);
            throw new SecretStoreException("The vault " + file + " could not be decrypted: " + e.getMessage(), e);
        } finally {
            if (plain != null) {
                Arrays.fill(plain, (byte) 0);
            }
        }
    }

    private static void parse(byte[] plain, Map<String, char[]> out, ObjectMapper mapper) throws IOException {
        try (JsonParser p = mapper.getFactory().createParser(plain)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("the secrets are not a JSON object");
            }
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                if (p.nextToken() != JsonToken.VALUE_STRING) {
                    throw new IOException("the secret " + name + " is not a string");
                }
                int from = p.getTextOffset();
                wipe(out.put(name, Arrays.copyOfRange(p.getTextCharacters(), from, from + p.getTextLength())));
            }
            if (t != JsonToken.END_OBJECT) {
                throw new IOException("the secrets end early");
            }
        }
    }

    /** The whole file for {@code secrets}, encrypted under {@code key} with a fresh nonce. */
    static byte[] encrypt(SecretKey key, int iterations, byte[] salt, Map<String, char[]> secrets, SecureRandom random,
                          ObjectMapper mapper) throws GeneralSecurityException, IOException {
        byte[] nonce = new byte[12];
        random.nextBytes(nonce);
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
        c.updateAAD(aad(iterations, salt));
        int estimate = 16;
        for (Map.Entry<String, char[]> e : secrets.entrySet()) {
            estimate += 6 * (e.getKey().length() + e.getValue().length) + 8;
        }
        WipeableBytes plain = new WipeableBytes(estimate);
        byte[] ct;
        try {
            try (JsonGenerator g = mapper.getFactory().createGenerator(plain)) {
                g.writeStartObject();
                for (Map.Entry<String, char[]> e : secrets.entrySet()) {
                    g.writeFieldName(e.getKey());
                    g.writeString(e.getValue(), 0, e.getValue().length);
                }
                g.writeEndObject();
            }
            ct = c.doFinal(plain.raw(), 0, plain.size());
        } finally {
            plain.wipe();
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("format", FORMAT);
        doc.put("version", VERSION);
        doc.put("kdf", KDF);
        doc.put("iterations", iterations);
        doc.put("salt", Base64.getEncoder().encodeToString(salt));
        doc.put("nonce", Base64.getEncoder().encodeToString(nonce));
        doc.put("ciphertext", Base64.getEncoder().encodeToString(ct));
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(doc);
    }

    private static byte[] aad(int iterations, byte[] salt) {
        String header = FORMAT + "|" + VERSION + "|" + KDF + "|" + iterations + "|"
                + Base64.getEncoder().encodeToString(salt);
        return header.getBytes(StandardCharsets.US_ASCII);
    }

    static void wipe(Map<String, char[]> secrets) {
        for (char[] v : secrets.values()) {
            wipe(v);
        }
        secrets.clear();
    }

    static void wipe(char[] secret) {
        if (secret != null) {
            Arrays.fill(secret, '\0');
        }
    }

    /** A byte buffer whose content can be zeroed (sized up front, so it does not leave grown-out copies). */
    private static final class WipeableBytes extends ByteArrayOutputStream {
        WipeableBytes(int size) {
            super(size);
        }

        byte[] raw() {
            return buf;
        }

        void wipe() {
            Arrays.fill(buf, (byte) 0);
            count = 0;
        }
    }
}
