package io.gpuforge.store.secret;

import java.util.Optional;

/**
 * Where passwords, API token secrets and SSH key passphrases live: the OS keyring or the encrypted vault.
 * Never settings, logs or plain SQLite columns; other stores keep only the key ("secret_ref").
 */
public interface SecretStore {

    /** Short, user-facing name of the backend, e.g. "Secret Service" or "Encrypted vault". */
    String backendName();

    /** False while a vault is locked (or not yet created): reads and writes then fail. */
    boolean isUnlocked();

    /** Stores a copy of {@code secret} under {@code key}, replacing what was there; the caller wipes its array. */
    void put(String key, char[] secret) throws SecretStoreException;

    /** A fresh copy of the secret, which the caller wipes after use; empty when there is none. */
    Optional<char[]> get(String key) throws SecretStoreException;

    /** Removes the secret; nothing happens when there is none. */
    void delete(String key) throws SecretStoreException;
}
