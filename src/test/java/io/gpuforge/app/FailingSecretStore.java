package io.gpuforge.app;

import io.gpuforge.store.secret.SecretStore;
import io.gpuforge.store.secret.SecretStoreException;
import io.gpuforge.store.secret.VaultSecretStore;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A test double in front of a real {@link VaultSecretStore}: it fails the operations a test names (as a
 * keyring that stopped answering, or a vault on a full disk would) and remembers which names hold a secret,
 * since a vault cannot list them, so a test can see orphaned or overwritten secrets.
 */
final class FailingSecretStore implements SecretStore {

    enum Op { PUT, GET, DELETE }

    private final VaultSecretStore vault;
    private final Set<Op> failing = EnumSet.noneOf(Op.class);
    private final Set<Op> failingOnce = EnumSet.noneOf(Op.class);
    private final Set<String> names = new TreeSet<>();

    FailingSecretStore(VaultSecretStore vault) {
        this.vault = vault;
    }

    /** These operations fail from now on; none when called without any. */
    void fail(Op... ops) {
        failing.clear();
        failingOnce.clear();
        Collections.addAll(failing, ops);
    }

    /** The next call of {@code op} fails, the ones after it work again (a keyring that timed out once). */
    void failNext(Op op) {
        failingOnce.add(op);
    }

    /** The names that hold a secret now. */
    Set<String> names() {
        return Set.copyOf(names);
    }

    @Override
    public String backendName() {
        return "test keyring";
    }

    @Override
    public boolean isUnlocked() {
        return vault.isUnlocked();
    }

    @Override
    public void put(String key, char[] secret) throws SecretStoreException {
        check(Op.PUT);
        vault.put(key, secret);
        names.add(key);
    }

    @Override
    public Optional<char[]> get(String key) throws SecretStoreException {
        check(Op.GET);
        return vault.get(key);
    }

    @Override
    public void delete(String key) throws SecretStoreException {
        check(Op.DELETE);
        vault.delete(key);
        names.remove(key);
    }

    private void check(Op op) throws SecretStoreException {
        if (failing.contains(op) || failingOnce.remove(op)) {
            throw new SecretStoreException("The keyring did not answer (injected " + op + " failure)");
        }
    }
}
