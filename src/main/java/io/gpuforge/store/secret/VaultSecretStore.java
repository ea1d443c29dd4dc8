package io.gpuforge.store.secret;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.store.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.crypto.SecretKey;

/**
 * An encrypted file of secrets, for machines without an OS keyring. The whole map of secrets is one
 * AES-256-GCM ciphertext; the key is derived from the user's master passphrase with PBKDF2-HMAC-SHA256
 * (600,000 iterations by default, salt of 16 random bytes). The header (format, KDF, iterations, salt) is
 * bound to the ciphertext as associated data, so editing any of it is detected (see {@link VaultFormat}).
 *
 * <p>Several GPUForge processes may use one vault (a window and CLI commands). Every change is a
 * read-merge-write under an exclusive lock ({@link VaultLock}): the file is read again, this one change is
 * applied to what is there now, and the result is written with a fresh 12-byte nonce to a temp file that is
 * flushed to the disk and renamed over the vault (owner-only where the file system has POSIX permissions).
 * Reads also go to the file, so a secret another process added is seen at once. Only the key stays in
 * memory while unlocked; decrypted secrets live in {@code char[]} that are wiped after each operation.
 */
public final class VaultSecretStore implements SecretStore {

    public static final int DEFAULT_ITERATIONS = 600_000;
    /**
     * The PBKDF2 iteration counts a vault file may name, checked before any key is derived. The floor is the
     * cost this class has always refused to go below (vaults made with it, as the tests do, keep opening);
     * the ceiling is five times the default, room for raising the default twice over, and bounds what a
     * tampered or damaged file can cost: a few seconds of unlocking (some 2 s on a current laptop) instead
     * of hours.
     */
    public static final int MIN_ITERATIONS = 1000;
    public static final int MAX_ITERATIONS = 5 * DEFAULT_ITERATIONS;
    private static final Duration LOCK_WAIT = Duration.ofSeconds(10);

    /**
     * The number of writes the vault has seen, inside its encrypted content (so it cannot be changed without the
     * passphrase); not a secret name a caller can give (a name of the window's and commands' never starts with NUL).
     */
    static final String GENERATION = "\u0000generation";

    private final Path file;
    private final Path lockFile;
    private final int iterations;
    /** Where the last generation written is kept, out of the vault's directory: a restored copy cannot reach it. */
    private final Optional<Path> witness;
    /** Set at unlock when the vault is older than the last one written here. */
    private Optional<String> rolledBack = Optional.empty();
    private final SecureRandom random = new SecureRandom();
    private final ObjectMapper mapper = new ObjectMapper();
    /** While unlocked: the key, and the salt and cost of the file it was derived for. */
    private SecretKey key;
    private byte[] salt;
    private int fileIterations;

    public VaultSecretStore(Path file) {
        this(file, DEFAULT_ITERATIONS);
    }

    /** With a given PBKDF2 cost for new vaults; existing vaults keep the cost they were made with. */
    public VaultSecretStore(Path file, int iterations) {
        this(file, iterations, Optional.empty());
    }

    /**
     * With the file that witnesses the vault's last write ({@code witness}, beside the settings): a vault file older
     * than it (a backup put back, an old copy swapped in) is noticed at unlock ({@link #rolledBack()}).
     */
    public VaultSecretStore(Path file, int iterations, Optional<Path> witness) {
        if (iterations < MIN_ITERATIONS) {
            throw new IllegalArgumentException("PBKDF2 iterations too low: " + iterations + " (at least " + MIN_ITERATIONS + ")");
        }
        if (iterations > MAX_ITERATIONS) {
            throw new IllegalArgumentException("PBKDF2 iterations too high: " + iterations + " (at most " + MAX_ITERATIONS + ")");
        }
        this.file = file;
        this.lockFile = file.resolveSibling(file.getFileName() + ".lock");
        this.iterations = iterations;
        this.witness = witness;
    }

    /**
     * Why the vault unlocked last is not the one last written on this computer (it holds fewer writes than were
     * made: restored from a backup or replaced by an older copy, so secrets saved since are missing or old); empty
     * when it is, or when nothing was witnessed yet.
     */
    public synchronized Optional<String> rolledBack() {
        return rolledBack;
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
        byte[] newSalt = newSalt();
        SecretKey newKey = VaultFormat.derive(passphrase, newSalt, iterations);
        try (VaultLock l = exclusive()) {
            if (exists()) {
                throw new SecretStoreException("A vault already exists at " + file + " (another GPUForge just made it)");
            }
            write(newKey, iterations, newSalt, new TreeMap<>());
        }
        use(newKey, newSalt, iterations);
    }

    /** Opens the vault; a wrong passphrase or an altered file is refused and the vault stays locked. */
    public synchronized void unlock(char[] passphrase) throws SecretStoreException {
        VaultFormat.Header h = VaultFormat.read(file, mapper);
        SecretKey k = VaultFormat.derive(passphrase, h.salt, h.iterations);
        TreeMap<String, char[]> secrets = VaultFormat.decrypt(k, h, file, mapper);
        long generation = generation(secrets);
        VaultFormat.wipe(secrets);
        use(k, h.salt, h.iterations);
        long witnessed = witnessed();
        rolledBack = generation < witnessed ? Optional.of("The vault " + file + " is older than the one last written"
                + " on this computer (" + generation + " writes, " + witnessed + " were made): it was restored from a"
                + " copy or replaced. Secrets saved since then are missing or old in it; save them again, or put the"
                + " newer vault back. The next change to it makes it the current one.")
                : Optional.empty();
    }

    /** The writes the vault's content counts (0 for a vault from before the count). */
    private static long generation(Map<String, char[]> secrets) {
        char[] g = secrets.get(GENERATION);
        try {
            return g == null ? 0 : Long.parseLong(new String(g));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The last generation written here, as the witness holds it (0 without one). */
    private long witnessed() {
        if (witness.isEmpty() || !Files.isRegularFile(witness.get())) {
            return 0;
        }
        try {
            return Long.parseLong(io.gpuforge.bounded.BoundedStreams.readString(witness.get(), 64).strip());
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    public synchronized void lock() {
        key = null;
        salt = null;
    }

    /** Re-encrypts every secret under a new passphrase and a new salt. */
    public synchronized void changePassphrase(char[] current, char[] next) throws SecretStoreException {
        unlock(current);
        checkPassphrase(next);
        byte[] newSalt = newSalt();
        SecretKey newKey = VaultFormat.derive(next, newSalt, iterations);
        TreeMap<String, char[]> secrets = null;
        try (VaultLock l = exclusive()) {
            secrets = readCurrent();
            write(newKey, iterations, newSalt, secrets);
        } finally {
            if (secrets != null) {
                VaultFormat.wipe(secrets);
            }
        }
        use(newKey, newSalt, iterations);
    }

    /** Stores a copy of {@code secret} (the caller still owns, and wipes, its array). */
    @Override
    public synchronized void put(String name, char[] secret) throws SecretStoreException {
        checkName(name);
        requireUnlocked();
        TreeMap<String, char[]> secrets = null;
        try (VaultLock l = exclusive()) {
            secrets = readCurrent();
            VaultFormat.wipe(secrets.put(name, Arrays.copyOf(secret, secret.length)));
            write(key, fileIterations, salt, secrets);
        } finally {
            if (secrets != null) {
                VaultFormat.wipe(secrets);
            }
        }
    }

    /** A copy of the secret, read from the file as it is now; the caller wipes it. */
    @Override
    public synchronized Optional<char[]> get(String name) throws SecretStoreException {
        checkName(name);
        requireUnlocked();
        TreeMap<String, char[]> secrets = readCurrent();
        try {
            char[] v = secrets.get(name);
            return v == null ? Optional.empty() : Optional.of(Arrays.copyOf(v, v.length));
        } finally {
            VaultFormat.wipe(secrets);
        }
    }

    @Override
    public synchronized void delete(String name) throws SecretStoreException {
        checkName(name);
        requireUnlocked();
        TreeMap<String, char[]> secrets = null;
        try (VaultLock l = exclusive()) {
            secrets = readCurrent();
            char[] removed = secrets.remove(name);
            if (removed != null) {
                VaultFormat.wipe(removed);
                write(key, fileIterations, salt, secrets);
            }
        } finally {
            if (secrets != null) {
                VaultFormat.wipe(secrets);
            }
        }
    }

    private VaultLock exclusive() throws SecretStoreException {
        return VaultLock.acquire(lockFile, LOCK_WAIT);
    }

    private void use(SecretKey k, byte[] s, int cost) {
        key = k;
        salt = s;
        fileIterations = cost;
    }

    private byte[] newSalt() {
        byte[] s = new byte[16];
        random.nextBytes(s);
        return s;
    }

    /**
     * The secrets as the file holds them now. If another process changed the passphrase since this one was
     * unlocked, the key here no longer fits: lock, and say so, rather than write the old key's file back.
     */
    private TreeMap<String, char[]> readCurrent() throws SecretStoreException {
        if (!exists()) {
            lock();
            throw new SecretStoreException("The vault file " + file + " is gone (was it moved or deleted?):"
                    + " restore it, or set up a new vault in Preferences");
        }
        VaultFormat.Header h = VaultFormat.read(file, mapper);
        if (h.iterations != fileIterations || !Arrays.equals(h.salt, salt)) {
            lock();
            throw new SecretStoreException("The vault's master passphrase was changed by another GPUForge (a window or"
                    + " a command) after it was unlocked here: unlock it again with the current passphrase");
        }
        return VaultFormat.decrypt(key, h, file, mapper);
    }

    /** Writes the secrets with the next generation (past the vault's and the witness's), then the witness. */
    private void write(SecretKey k, int cost, byte[] s, Map<String, char[]> secrets) throws SecretStoreException {
        long next = Math.max(generation(secrets), witnessed()) + 1;
        VaultFormat.wipe(secrets.put(GENERATION, Long.toString(next).toCharArray()));
        try {
            AtomicFiles.write(file, VaultFormat.encrypt(k, cost, s, secrets, random, mapper), true);
        } catch (GeneralSecurityException | IOException e) {
            throw new SecretStoreException("Could not write the vault " + file + ": " + e.getMessage(), e);
        }
        rolledBack = Optional.empty();
        if (witness.isPresent()) {
            try {
                Files.createDirectories(witness.get().getParent());
                AtomicFiles.write(witness.get(), (next + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                        true);
            } catch (IOException e) {
                throw new SecretStoreException("The vault was written, but its generation could not be kept in "
                        + witness.get() + ": " + e.getMessage(), e);
            }
        }
    }

    private static void checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("secret name must not be blank");
        }
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
}
