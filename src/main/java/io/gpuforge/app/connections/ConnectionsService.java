package io.gpuforge.app.connections;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionOptions;
import io.gpuforge.hypervisor.proxmox.PveCredentials;
import io.gpuforge.store.ConnectionRepository;
import io.gpuforge.store.StoreException;
import io.gpuforge.store.secret.SecretStore;
import io.gpuforge.store.secret.SecretStoreException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Saved connections and their secrets, kept consistent with each other. Everything is checked before
 * anything is written (name free, fields valid, secret store open); a connection's secret is stored under
 * the connection's own id ({@code connection:<id>:token}, {@code connection:<id>:password}), never under
 * its name, so one connection can never overwrite another's. Add, edit and remove are all or nothing: the
 * row changes in a transaction, the secret store is written inside it, and a failure at any point rolls the
 * row back and takes back what was written to the store. Rows saved by earlier versions keep the name-based
 * ref they have; it is read from the row like any other. Blocking: call from a background task. Every
 * {@code char[]} secret handed in is wiped before the method returns.
 */
public final class ConnectionsService {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionsService.class);
    private final ConnectionRepository repository;
    private final SecretsService secrets;
    private final KeyPassphraseMigration migration;

    public ConnectionsService(ConnectionRepository repository, SecretsService secrets) {
        this.repository = repository;
        this.secrets = secrets;
        this.migration = new KeyPassphraseMigration(repository, secrets, this::keep);
    }

    public List<ConnectionInfo> all() throws StoreException {
        return repository.all();
    }

    public Optional<ConnectionInfo> find(long id) throws StoreException {
        return repository.find(id);
    }

    /** Saves an SSH host; a password (optional: keys need none) goes to the secret store. */
    public ConnectionInfo addSsh(String name, String userAtHost, Optional<char[]> password)
            throws StoreException, SecretStoreException {
        try {
            return add(ConnectionDraft.ssh(name, userAtHost), password.filter(p -> p.length > 0));
        } finally {
            password.ifPresent(ConnectionsService::wipe);
        }
    }

    /**
     * Saves an SSH host with its login choices (the SSH agent, a key file, sudo); a password (optional) goes to
     * the secret store.
     */
    public ConnectionInfo addSsh(String name, String userAtHost, Optional<char[]> password, ConnectionOptions options)
            throws StoreException, SecretStoreException {
        try {
            return add(ConnectionDraft.ssh(name, userAtHost), password.filter(p -> p.length > 0), options);
        } finally {
            password.ifPresent(ConnectionsService::wipe);
        }
    }

    /** Saves a libvirt connection (any URI libvirt accepts); it has no secret of its own. */
    public ConnectionInfo addLibvirt(String name, String uri) throws StoreException, SecretStoreException {
        return add(ConnectionDraft.libvirt(name, uri), Optional.empty());
    }

    /**
     * Saves a Proxmox VE cluster reached with an API token; the token secret goes to the secret store, the
     * accepted certificate fingerprint (if the system does not trust the certificate) with the connection.
     */
    public ConnectionInfo addProxmox(String name, String url, String tokenId, char[] secret, Optional<String> fingerprint)
            throws StoreException, SecretStoreException {
        try {
            String id = tokenId == null ? "" : tokenId.strip();
            if (!PveCredentials.Token.isValidId(id)) {
                // the token's own check says what is wrong, without echoing a secret pasted into the id
                new PveCredentials.Token(id, "");
            }
            return add(ConnectionDraft.proxmox(name, url, id, fingerprint), Optional.of(secret));
        } finally {
            wipe(secret);
        }
    }

    /**
     * Saves a Proxmox VE cluster reached as a user ({@code USER@REALM}, e.g. {@code root@pam}) with a password; the
     * password goes to the secret store. An account with a second factor is asked for its one-time code at login.
     */
    public ConnectionInfo addProxmoxUser(String name, String url, String userAtRealm, char[] password,
                                         Optional<String> fingerprint) throws StoreException, SecretStoreException {
        try {
            if (userAtRealm == null || userAtRealm.contains("!")) {
                throw new IllegalArgumentException("A password login names a user with its realm (USER@REALM, e.g."
                        + " root@pam), not an API token");
            }
            return add(ConnectionDraft.proxmox(name, url, userAtRealm, fingerprint), Optional.of(password));
        } finally {
            wipe(password);
        }
    }

    /** The Demo lab: a simulated Proxmox VE cluster inside GPUForge. */
    public ConnectionInfo addDemo(String name) throws StoreException, SecretStoreException {
        return add(ConnectionDraft.demo(name), Optional.empty());
    }

    /** Saves a new connection with its secret, if its kind keeps one; all or nothing. */
    public ConnectionInfo add(ConnectionDraft draft, Optional<char[]> secret) throws StoreException, SecretStoreException {
        return add(draft, secret, ConnectionOptions.none());
    }

    /** Saves a new connection with its secret and login options; all or nothing. */
    public ConnectionInfo add(ConnectionDraft draft, Optional<char[]> secret, ConnectionOptions options)
            throws StoreException, SecretStoreException {
        try {
            ConnectionRules.checkOptions(draft, options);
            ConnectionRules.checkSecret(draft, secret, true);
            checkNameFree(draft, 0);
            requireOpenStore(draft, secret);
            SecretChange change = new SecretChange(store());
            try {
                return repository.insert(draft.toInfo(0, Optional.empty()).withOptions(options.withPassphraseRef(
                        Optional.empty())), (id, none) -> {
                    if (secret.isEmpty()) {
                        return Optional.empty();
                    }
                    String ref = ConnectionRules.nextRef(id, draft, Optional.empty());
                    change.put(ref, secret.get());
                    return Optional.of(ref);
                });
            } catch (StoreException | SecretStoreException | RuntimeException e) {
                change.undo(draft.name(), e);
                throw e;
            } finally {
                change.wipe();
            }
        } finally {
            secret.ifPresent(ConnectionsService::wipe);
        }
    }

    /**
     * Changes a saved connection's name, address, user and certificate fingerprint, and its secret when
     * {@code newSecret} is given (else the secret stays); not its kind. All or nothing.
     */
    public ConnectionInfo edit(long id, ConnectionDraft draft, Optional<char[]> newSecret)
            throws StoreException, SecretStoreException {
        Optional<ConnectionInfo> found = repository.find(id);
        return edit(id, draft, newSecret, found.map(ConnectionInfo::options).orElse(ConnectionOptions.none()));
    }

    /**
     * Changes a saved connection as {@link #edit(long, ConnectionDraft, Optional)} does, and its login options. A
     * key passphrase kept for the connection stays while the key file is the same; with another key file (or
     * none) it is taken out of the secret store, since it belonged to the old key.
     */
    public ConnectionInfo edit(long id, ConnectionDraft draft, Optional<char[]> newSecret, ConnectionOptions options)
            throws StoreException, SecretStoreException {
        try {
            ConnectionRules.checkOptions(draft, options);
            ConnectionInfo before = repository.find(id).orElseThrow(() -> new IllegalArgumentException(
                    "No saved connection has id " + id + " (was it removed in another window?)"));
            boolean sameKey = before.options().identityFile().equals(options.identityFile());
            Optional<String> oldPassphrase = before.options().passphraseRef();
            ConnectionOptions next = options.withPassphraseRef(sameKey ? oldPassphrase : Optional.empty());
            if (before.kind() != draft.kind()) {
                throw new IllegalArgumentException("'" + before.name() + "' is a " + before.kind().db() + " connection;"
                        + " its kind cannot change: remove it and add a " + draft.kind().db() + " connection");
            }
            ConnectionRules.checkSecret(draft, newSecret, false);
            checkNameFree(draft, id);
            requireOpenStore(draft, newSecret);
            SecretChange change = new SecretChange(store());
            try {
                ConnectionInfo updated = repository.update(draft.toInfo(id, Optional.empty()).withOptions(next),
                        (rowId, ownRef) -> {
                    if (!sameKey && oldPassphrase.isPresent()) {
                        change.deleteExtra(oldPassphrase.get());
                    }
                    if (newSecret.isEmpty()) {
                        return Optional.empty();
                    }
                    // under a fresh name, so that the old secret is intact until the new one is in place
                    String ref = ConnectionRules.nextRef(rowId, draft, ownRef);
                    change.readOld(ownRef);
                    change.put(ref, newSecret.get());
                    change.deleteOld();
                    return Optional.of(ref);
                });
                return updated;
            } catch (StoreException | SecretStoreException | RuntimeException e) {
                change.undo(draft.name(), e);
                throw e;
            } finally {
                change.wipe();
            }
        } finally {
            newSecret.ifPresent(ConnectionsService::wipe);
        }
    }

    /**
     * Keeps the passphrase of an SSH connection's key file in the secret store (the user ticked "remember" when
     * asked for it), under {@code connection:<id>:passphrase}, recorded on the connection so that it goes with it
     * when the connection is removed; a passphrase kept before is replaced.
     */
    public ConnectionInfo keepPassphrase(long id, char[] passphrase) throws StoreException, SecretStoreException {
        try {
            migration.runOnce();
            ConnectionInfo c = repository.find(id).orElseThrow(() -> new IllegalArgumentException(
                    "No saved connection has id " + id + " (was it removed in another window?)"));
            return keep(c, passphrase);
        } finally {
            wipe(passphrase);
        }
    }

    /** {@link #keepPassphrase} for a connection read already; the caller wipes the array. */
    private ConnectionInfo keep(ConnectionInfo c, char[] passphrase) throws StoreException, SecretStoreException {
        if (c.kind() != ConnectionInfo.Kind.SSH) {
            throw new IllegalArgumentException("Only an SSH host keeps a key passphrase, not the " + c.kind().db()
                    + " connection '" + c.name() + "'");
        }
        if (passphrase.length == 0) {
            throw new IllegalArgumentException("An empty passphrase is not kept");
        }
        if (!store().isUnlocked()) {
            throw new SecretStoreException("Key passphrases are kept in the encrypted vault: set it up or unlock it"
                    + " in Preferences first");
        }
        String ref = passphraseRef(c.id());
        SecretChange change = new SecretChange(store());
        try {
            return repository.update(c.withOptions(c.options().withPassphraseRef(Optional.of(ref))),
                    (rowId, ownRef) -> {
                        change.readExtra(c.options().passphraseRef());
                        change.put(ref, passphrase);
                        return Optional.empty();
                    });
        } catch (StoreException | SecretStoreException | RuntimeException e) {
            change.undo(c.name(), e);
            throw e;
        } finally {
            change.wipe();
        }
    }

    /** The one name a connection's key passphrase is kept under. */
    static String passphraseRef(long id) {
        return "connection:" + id + ":passphrase";
    }

    /** The key passphrase kept for an SSH connection, if one is. The caller wipes the array. */
    public Optional<char[]> passphrase(ConnectionInfo c) throws SecretStoreException {
        if (c.options().passphraseRef().isEmpty() || !store().isUnlocked()) {
            return Optional.empty();
        }
        return store().get(c.options().passphraseRef().get());
    }

    /**
     * The key passphrase kept for the saved connection {@code id} as it is now (read again: it may have been
     * remembered since the caller read it). The caller wipes the array.
     */
    public Optional<char[]> passphrase(long id) throws StoreException, SecretStoreException {
        migration.runOnce();
        Optional<ConnectionInfo> c = repository.find(id);
        return c.isEmpty() ? Optional.empty() : passphrase(c.get());
    }

    /**
     * The secret kept for a connection (password or token secret), for "Test connection" of an edited connection
     * whose secret field was left as it was. The caller wipes the array.
     */
    public Optional<char[]> secret(ConnectionInfo c) throws SecretStoreException {
        if (c.secretRef().isEmpty()) {
            return Optional.empty();
        }
        return store().get(c.secretRef().get());
    }

    /** Removes a saved connection and its secret, both or neither; nothing happens if it is gone already. */
    public void remove(long id) throws StoreException, SecretStoreException {
        migration.runOnce();
        Optional<ConnectionInfo> found = repository.find(id);
        if (found.isEmpty()) {
            return;
        }
        ConnectionInfo c = found.get();
        boolean reachable = c.secretRef().isEmpty() || secretStoreHolds(c);
        SecretChange change = new SecretChange(store());
        try {
            repository.delete(id, (rowId, ownRef) -> {
                if (reachable) {
                    change.readOld(ownRef);
                    change.deleteOld();
                    if (c.options().passphraseRef().isPresent() && store().isUnlocked()) {
                        change.deleteExtra(c.options().passphraseRef().get());
                    }
                }
                return Optional.empty();
            });
        } catch (StoreException | SecretStoreException | RuntimeException e) {
            change.undo(c.name(), e);
            throw e;
        } finally {
            change.wipe();
        }
    }

    /** Removes a saved connection and its secret (see {@link #remove}); the row is read again by its id. */
    public void delete(ConnectionInfo c) throws StoreException, SecretStoreException {
        remove(c.id());
    }

    private SecretStore store() {
        return secrets.store();
    }

    private void checkNameFree(ConnectionDraft draft, long exceptId) throws StoreException {
        if (repository.nameTaken(draft.name(), exceptId)) {
            throw new IllegalArgumentException(ConnectionRepository.nameTakenMessage(draft.name()));
        }
    }

    private void requireOpenStore(ConnectionDraft draft, Optional<char[]> secret) throws SecretStoreException {
        if (secret.isEmpty() || store().isUnlocked()) {
            return;
        }
        throw new SecretStoreException(draft.kind() == ConnectionInfo.Kind.PROXMOX
                ? "API token secrets are kept in the encrypted vault: set it up or unlock it in Preferences first"
                : "Passwords are kept in the encrypted vault: set it up or unlock it in Preferences first"
                        + " (or leave the password empty to use SSH keys)");
    }

    /**
     * Whether the secret of {@code c} can be removed with it. A locked vault refuses the removal (its secret
     * would be left behind); with no store at all there is nowhere the secret could be.
     */
    private boolean secretStoreHolds(ConnectionInfo c) throws SecretStoreException {
        if (store().isUnlocked()) {
            return true;
        }
        if (secrets.state() == SecretsService.State.VAULT_NOT_SET_UP) {
            LOG.info("Removing {}: no secret store is set up, so its secret {} cannot be anywhere", c.name(),
                    c.secretRef().orElse(""));
            return false;
        }
        throw new SecretStoreException("The secret of '" + c.name() + "' is in the encrypted vault, which is locked:"
                + " unlock it in Preferences, then remove the connection, so that its secret goes with it");
    }

    private static void wipe(char[] secret) {
        Arrays.fill(secret, '\0');
    }
}
