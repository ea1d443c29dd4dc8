package io.gpuforge.app.connections;

import io.gpuforge.store.secret.SecretStore;
import io.gpuforge.store.secret.SecretStoreException;
import java.util.Arrays;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The secret store's side of one add, edit or remove, done inside the row's transaction, and how to take
 * it back when the transaction fails: a secret written is deleted, a secret deleted is put back.
 */
final class SecretChange {

    private static final Logger LOG = LoggerFactory.getLogger(SecretChange.class);
    private final SecretStore store;
    private String added;
    private boolean addedStored;
    private String removed;
    private char[] removedValue;
    private boolean removedDeleted;
    private String extra;
    private char[] extraValue;
    private boolean extraDeleted;

    SecretChange(SecretStore store) {
        this.store = store;
    }

    /** Reads the secret about to be replaced or deleted, so that a failure later can put it back. */
    void readOld(Optional<String> ref) throws SecretStoreException {
        if (ref.isPresent()) {
            removed = ref.get();
            removedValue = store.get(removed).orElse(null);
        }
    }

    void put(String ref, char[] secret) throws SecretStoreException {
        added = ref;
        store.put(ref, secret);
        addedStored = true;
    }

    void deleteOld() throws SecretStoreException {
        if (removed != null) {
            store.delete(removed);
            removedDeleted = true;
        }
    }

    /** Reads a second secret of the connection (a key passphrase) that {@link #put} replaces. */
    void readExtra(Optional<String> ref) throws SecretStoreException {
        if (ref.isPresent()) {
            extra = ref.get();
            extraValue = store.get(extra).orElse(null);
        }
    }

    /** Deletes a second secret of the connection (a key passphrase), to be put back if the change fails. */
    void deleteExtra(String ref) throws SecretStoreException {
        if (extra == null) {
            readExtra(Optional.of(ref));
        }
        store.delete(ref);
        extraDeleted = true;
    }

    void undo(String connection, Exception cause) {
        if (added != null && added.equals(extra) && extraValue != null) {
            // the new secret replaced an older one under the same ref: put the older one back
            try {
                store.put(added, extraValue);
            } catch (SecretStoreException | RuntimeException e) {
                cause.addSuppressed(e);
                LOG.error("Saving {} failed ({}), and the secret {} could not be put back as it was: {}", connection,
                        cause.getMessage(), added, e.getMessage());
            }
        } else if (added != null) {
            try {
                store.delete(added);
            } catch (SecretStoreException | RuntimeException e) {
                if (addedStored) {
                    cause.addSuppressed(e);
                    LOG.error("Saving {} failed ({}), and its new secret {} could not be taken back out of the"
                            + " secret store: {}", connection, cause.getMessage(), added, e.getMessage());
                }
            }
        }
        if (extraDeleted && extraValue != null && !extra.equals(added)) {
            try {
                store.put(extra, extraValue);
            } catch (SecretStoreException | RuntimeException e) {
                cause.addSuppressed(e);
                LOG.error("Changing {} failed ({}), and its key passphrase {} could not be put back into the"
                        + " secret store: {}", connection, cause.getMessage(), extra, e.getMessage());
            }
        }
        if (removedDeleted && removedValue != null) {
            try {
                store.put(removed, removedValue);
            } catch (SecretStoreException | RuntimeException e) {
                cause.addSuppressed(e);
                LOG.error("Changing {} failed ({}), and its previous secret {} could not be put back into the"
                        + " secret store: {}", connection, cause.getMessage(), removed, e.getMessage());
            }
        }
    }

    void wipe() {
        if (removedValue != null) {
            Arrays.fill(removedValue, '\0');
        }
        if (extraValue != null) {
            Arrays.fill(extraValue, '\0');
        }
    }
}
