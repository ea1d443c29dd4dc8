package io.gpuforge.app.connections;

import io.gpuforge.store.secret.SecretStore;
import io.gpuforge.store.secret.SecretStoreException;
import io.gpuforge.store.secret.VaultSecretStore;
import java.util.Arrays;
import java.util.Optional;

/**
 * The secret store in use and its state, for the preferences window and for backends that need a
 * password. The OS keyring when one answers, else the encrypted vault, which the user sets up with a
 * master passphrase and unlocks once per run.
 */
public final class SecretsService {

    public enum State { KEYRING, VAULT_NOT_SET_UP, VAULT_LOCKED, VAULT_UNLOCKED }

    private final Optional<SecretStore> keyring;
    private final VaultSecretStore vault;

    public SecretsService(Optional<SecretStore> keyring, VaultSecretStore vault) {
        this.keyring = keyring;
        this.vault = vault;
    }

    public State state() {
        if (keyring.isPresent()) {
            return State.KEYRING;
        }
        if (!vault.exists()) {
            return State.VAULT_NOT_SET_UP;
        }
        return vault.isUnlocked() ? State.VAULT_UNLOCKED : State.VAULT_LOCKED;
    }

    /** User-facing name of the store in use. */
    public String backendName() {
        return store().backendName();
    }

    public SecretStore store() {
        return keyring.orElse(vault);
    }

    /** Sets up the vault; the passphrase array is wiped afterwards. */
    public void createVault(char[] passphrase) throws SecretStoreException {
        try {
            vault.create(passphrase);
        } finally {
            Arrays.fill(passphrase, '\0');
        }
    }

    public void unlockVault(char[] passphrase) throws SecretStoreException {
        try {
            vault.unlock(passphrase);
        } finally {
            Arrays.fill(passphrase, '\0');
        }
    }

    /** Why the vault unlocked is older than the one last written here (a copy put back), if it is. */
    public java.util.Optional<String> vaultRolledBack() {
        return vault.rolledBack();
    }

    public void lockVault() {
        vault.lock();
    }

    /** Whether secrets can be read and kept now: the keyring, or the vault set up and unlocked. */
    public boolean ready() {
        return store().isUnlocked();
    }

    /** Whether a secret is kept under {@code key} (read and wiped at once); false when the store is not ready. */
    public boolean has(String key) {
        try {
            Optional<char[]> v = store().get(key);
            v.ifPresent(c -> Arrays.fill(c, '\0'));
            return v.isPresent();
        } catch (SecretStoreException e) {
            return false;
        }
    }

    /** Keeps a copy of {@code secret} under {@code key} (the caller wipes its array); the store must be ready. */
    public void put(String key, char[] secret) throws SecretStoreException {
        store().put(key, secret);
    }

    /** Forgets the secret under {@code key}, if there is one; the store must be ready. */
    public void delete(String key) throws SecretStoreException {
        store().delete(key);
    }
}
