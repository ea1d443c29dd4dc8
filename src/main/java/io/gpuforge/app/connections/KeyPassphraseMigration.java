package io.gpuforge.app.connections;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.store.ConnectionRepository;
import io.gpuforge.store.StoreException;
import io.gpuforge.store.secret.SecretStore;
import io.gpuforge.store.secret.SecretStoreException;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Versions before this one remembered a key passphrase typed at login under {@code connection:<id>:key-passphrase},
 * a name nothing recorded and removal did not know, so it outlived its connection. Once per secret store (a marker
 * in the store says it ran), when the store is open: a passphrase of a connection that still exists moves to the
 * one recorded name ({@link ConnectionsService#keepPassphrase}); one of a removed connection is deleted. Ids are
 * never reused, so every id up to the highest ever given is looked at.
 */
final class KeyPassphraseMigration {

    /** Keeps a passphrase for a connection under its recorded name. */
    @FunctionalInterface
    interface Keeper {
        ConnectionInfo keep(ConnectionInfo c, char[] passphrase) throws StoreException, SecretStoreException;
    }

    static final String MARKER = "gpuforge:migrated:key-passphrase-names";
    private static final Logger LOG = LoggerFactory.getLogger(KeyPassphraseMigration.class);

    private final ConnectionRepository repository;
    private final SecretsService secrets;
    private final Keeper keeper;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile SecretStore doneFor;

    KeyPassphraseMigration(ConnectionRepository repository, SecretsService secrets, Keeper keeper) {
        this.repository = repository;
        this.secrets = secrets;
        this.keeper = keeper;
    }

    /** The name the earlier versions used. */
    static String oldRef(long id) {
        return "connection:" + id + ":key-passphrase";
    }

    /** Runs the migration if the store is open and it has not run on it; a failure is logged and tried again later. */
    void runOnce() {
        SecretStore store = secrets.store();
        if (doneFor == store || !store.isUnlocked() || !running.compareAndSet(false, true)) {
            return;
        }
        try {
            Optional<char[]> marker = store.get(MARKER);
            if (marker.isPresent()) {
                Arrays.fill(marker.get(), '\0');
            } else {
                migrate(store);
                store.put(MARKER, "1".toCharArray());
            }
            doneFor = store;
        } catch (StoreException | SecretStoreException | RuntimeException e) {
            LOG.warn("Key passphrases kept under their old name could not be moved or removed yet ({}); tried again"
                    + " on the next use", e.getMessage());
        } finally {
            running.set(false);
        }
    }

    private void migrate(SecretStore store) throws StoreException, SecretStoreException {
        int moved = 0;
        int removed = 0;
        for (long id = 1, last = repository.highestIdEverUsed(); id <= last; id++) {
            Optional<char[]> old = store.get(oldRef(id));
            if (old.isEmpty()) {
                continue;
            }
            try {
                Optional<ConnectionInfo> c = repository.find(id);
                if (c.isPresent() && c.get().kind() == ConnectionInfo.Kind.SSH
                        && c.get().options().passphraseRef().isEmpty() && old.get().length > 0) {
                    keeper.keep(c.get(), old.get());
                    moved++;
                } else {
                    removed++;
                }
                store.delete(oldRef(id));
            } finally {
                Arrays.fill(old.get(), '\0');
            }
        }
        if (moved + removed > 0) {
            LOG.info("Key passphrases under their old name: {} moved to their connection, {} of removed connections"
                    + " deleted", moved, removed);
        }
    }
}
