package io.gpuforge.store.secret;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import io.gpuforge.store.AtomicFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * An encrypted file of secrets, for machines without an OS keyring. The whole map of secrets is one
 * AES-256-GCM ciphertext; the key is derived from the user's master passphrase with PBKDF2-HMAC-SHA256
 * (600,000 iterations by default, salt of 16 random bytes). The header (format, KDF, iterations, salt) is
 * bound to the ciphertext as associated data, so editing any of it is detected. Every write uses a fresh
 * 12-byte nonce and replaces the file atomically, owner-only where the file system has POSIX permissions.
 */
public final class VaultSecretStore implements SecretStore {

    public static final int DEFAULT_ITERATIONS = 600_000;
    static final String FORMAT = "gpuforge-vault";
    private static final int VERSION = 1;
    private static final String KDF = "PBKDF2WithHmacSHA256";
    private static final int TAG_BITS = 128;

    private final Path file;
    private final int iterations;
    private final SecureRandom random = new SecureRandom();
    private final ObjectMapper mapper = new ObjectMapper();
    private SecretKey key;
    private byte[] salt;
    private int fileIterations;
    private Map<String, String> secrets;

    public VaultSecretStore(Path file) {
        this(file, DEFAULT_ITERATIONS);
    }

    /** With a given PBKDF2 cost for new vaults; existing vaults keep the cost they were made with. */
    public VaultSecretStore(Path file, int iterations) {
        if (iterations < 1000) {
            throw new IllegalArgumentException("PBKDF2 iterations too low: " + iterations);
        }
        this.file = file;
        this.iterations = iterations;
    }

    @Override
    public String backendName() {
        return "Encrypted vault";
    }

    public Path file() {
        return file;
    }

    public boolean exists() {
        return Files.exists(file);
    }

    @Override
    public synchronized boolean isUnlocked() {
        return key != null;
    }

    /** Creates a new, empty vault protected by {@code passphrase}; refuses to overwrite an existing one. */
    public synchronized void create(char[] passphrase) throws SecretStoreException {
        if (exists()) {
            throw new SecretStoreException("A vault already exists at " + file);
        }
        checkPassphrase(passphrase);
        salt = new byte[16];
        random.nextBytes(salt);
        fileIterations = iterations;
        key = derive(passphrase, salt, fileIterations);
        secrets = new TreeMap<>();
        save();
    }

    /** Opens the vault; a wrong passphrase or an altered file is refused and the vault stays locked. */
    public synchronized void unlock(char[] passphrase) throws SecretStoreException {
        Header h = readHeader();
        SecretKey k = derive(passphrase, h.salt, h.iterations);
        Map<String, String> plain = decrypt(k, h);
        key = k;
        salt = h.salt;
        fileIterations = h.iterations;
        secrets = plain;
    }

    public synchronized void lock() {
        key = null;
        secrets = null;
    }

    /** Re-encrypts every secret under a new passphrase and a new salt. */
    public synchronized void changePassphrase(char[] current, char[] next) throws SecretStoreException {
        unlock(current);
        checkPassphrase(next);
        salt = new byte[16];
        random.nextBytes(salt);
        fileIterations = iterations;
        key = derive(next, salt, fileIterations);
        save();
    }

    @Override
    public synchronized void put(String name, char[] secret) throws SecretStoreException {
        requireUnlocked();
        Map<String, String> next = new TreeMap<>(secrets);
        next.put(checkName(name), new String(secret));
        Map<String, String> before = secrets;
        secrets = next;
        try {
            save();
        } catch (SecretStoreException e) {
            secrets = before;
            throw e;
        }
    }

    @Override
    public synchronized Optional<char[]> get(String name) throws SecretStoreException {
        requireUnlocked();
        String v = secrets.get(checkName(name));
        return v == null ? Optional.empty() : Optional.of(v.toCharArray());
    }

    @Override
    public synchronized void delete(String name) throws SecretStoreException {
        requireUnlocked();
        if (!secrets.containsKey(checkName(name))) {
            return;
        }
        Map<String, String> before = secrets;
        Map<String, String> next = new TreeMap<>(secrets);
        next.remove(name);
        secrets = next;
        try {
            save();
        } catch (SecretStoreException e) {
            secrets = before;
            throw e;
        }
    }

    private static String checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("secret name must not be blank");
        }
        return name;
    }

    private static void checkPassphrase(char[] passphrase) throws SecretStoreException {
        if (passphrase == null || passphrase.length < 8) {
            throw new SecretStoreException("The master passphrase must have at least 8 characters");
        }
    }

    private void requireUnlocked() throws SecretStoreException {
        if (key == null) {
            throw new SecretStoreException(exists() ? "The vault is locked" : "No vault has been set up yet");
        }
    }

    private static SecretKey derive(char[] passphrase, byte[] salt, int iterations) throws SecretStoreException {
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

    private static byte[] aad(int iterations, byte[] salt) {
        String header = FORMAT + "|" + VERSION + "|" + KDF + "|" + iterations + "|"
                + Base64.getEncoder().encodeToString(salt);
        return header.getBytes(StandardCharsets.US_ASCII);
    }

    private void save() throws SecretStoreException {
        try {
            byte[] nonce = new byte[12];
            random.nextBytes(nonce);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(aad(fileIterations, salt));
            byte[] plain = mapper.writeValueAsBytes(secrets);
            byte[] ct;
            try {
                ct = c.doFinal(plain);
            } finally {
                Arrays.fill(plain, (byte) 0);
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("format", FORMAT);
            doc.put("version", VERSION);
            doc.put("kdf", KDF);
            doc.put("iterations", fileIterations);
            doc.put("salt", Base64.getEncoder().encodeToString(salt));
            doc.put("nonce", Base64.getEncoder().encodeToString(nonce));
            doc.put("ciphertext", Base64.getEncoder().encodeToString(ct));
            writeAtomically(mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(doc));
        } catch (GeneralSecurityException | IOException e) {
            throw new SecretStoreException("Could not write the vault " + file + ": " + e.getMessage(), e);
        }
    }

    private void writeAtomically(byte[] bytes) throws IOException {
        AtomicFiles.write(file, bytes, true);
    }

    private static final class Header {
        int iterations;
        byte[] salt;
        byte[] nonce;
        byte[] ciphertext;
    }

    private Header readHeader() throws SecretStoreException {
        if (!exists()) {
            throw new SecretStoreException("No vault has been set up yet at " + file);
        }
        Map<String, Object> doc;
        try {
            doc = mapper.readValue(file.toFile(), new TypeReference<Map<String, Object>>() { });
        } catch (IOException e) {
            throw new SecretStoreException("The vault file " + file + " is damaged (not valid JSON)", e);
        }
        if (doc == null || !FORMAT.equals(doc.get("format"))) {
            throw new SecretStoreException("The file " + file + " is not a GPUForge vault");
        }
        if (!Integer.valueOf(VERSION).equals(doc.get("version")) || !KDF.equals(doc.get("kdf"))) {
            throw new SecretStoreException("The vault " + file + " uses a format this GPUForge does not know");
        }
        Header h = new Header();
        try {
            Object it = doc.get("iterations");
            if (!(it instanceof Integer) || (Integer) it < 1000) {
                throw new SecretStoreException("The vault file " + file + " is damaged (iterations)");
            }
            h.iterations = (Integer) it;
            h.salt = Base64.getDecoder().decode(String.valueOf(doc.get("salt")));
            h.nonce = Base64.getDecoder().decode(String.valueOf(doc.get("nonce")));
            h.ciphertext = Base64.getDecoder().decode(String.valueOf(doc.get("ciphertext")));
        } catch (IllegalArgumentException e) {
            throw new SecretStoreException("The vault file " + file + " is damaged (bad Base64)", e);
        }
        if (h.salt.length < 16 || h.nonce.length != 12 || h.ciphertext.length < TAG_BITS / 8) {
            throw new SecretStoreException("The vault file " + file + " is damaged (field sizes)");
        }
        return h;
    }

    private Map<String, String> decrypt(SecretKey k, Header h) throws SecretStoreException {
        byte[] plain = null;
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, k, new GCMParameterSpec(TAG_BITS, h.nonce));
            c.updateAAD(aad(h.iterations, h.salt));
            plain = c.doFinal(h.ciphertext);
            return new TreeMap<>(mapper.readValue(plain, new TypeReference<Map<String, String>>() { }));
        } catch (AEADBadTagException e) {
            throw new SecretStoreException("Wrong master passphrase, or the vault file was altered");
        } catch (GeneralSecurityException | IOException e) {
            throw new SecretStoreException("The vault " + file + " could not be decrypted: " + e.getMessage(), e);
        } finally {
            if (plain != null) {
                Arrays.fill(plain, (byte) 0);
            }
        }
    }
}
