package io.gpuforge.app;

import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.host.SshTarget;
import io.gpuforge.store.ConnectionRepository;
import io.gpuforge.store.StoreException;
import io.gpuforge.store.secret.SecretStoreException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Saved connections and their secrets. Blocking: call from a background task. */
public final class ConnectionsService {

    private final ConnectionRepository repository;
    private final SecretsService secrets;

    public ConnectionsService(ConnectionRepository repository, SecretsService secrets) {
        this.repository = repository;
        this.secrets = secrets;
    }

    public List<ConnectionInfo> all() throws StoreException {
        return repository.all();
    }

    /**
     * Saves an SSH host. A password is kept in the secret store (keyring or unlocked vault), never in the
     * database; the array is wiped.
     */
    public ConnectionInfo addSsh(String name, String userAtHost, Optional<char[]> password)
            throws StoreException, SecretStoreException {
        SshTarget t = SshTarget.parse(userAtHost, "root");
        String address = (t.host().contains(":") ? "[" + t.host() + "]" : t.host()) + (t.port() == 22 ? "" : ":" + t.port());
        Optional<String> ref = Optional.empty();
        try {
            if (password.isPresent() && password.get().length > 0) {
                if (!secrets.store().isUnlocked()) {
                    throw new SecretStoreException("Passwords are kept in the encrypted vault: set it up or unlock it"
                            + " in Preferences first (or leave the password empty to use SSH keys)");
                }
                ref = Optional.of("ssh:" + name + ":password");
                secrets.store().put(ref.get(), password.get());
            }
        } finally {
            password.ifPresent(p -> Arrays.fill(p, '\0'));
        }
        return repository.add(new ConnectionInfo(0, name.strip(), ConnectionInfo.Kind.SSH, address, t.user(), ref));
    }

    /** Saves a libvirt connection (any URI libvirt accepts); it has no secret of its own. */
    public ConnectionInfo addLibvirt(String name, String uri) throws StoreException {
        if (uri == null || !uri.matches("[a-z0-9+]+://.*")) {
            throw new IllegalArgumentException("Not a libvirt URI: '" + uri + "' (e.g. qemu:///system, qemu+ssh://root@host/system)");
        }
        return repository.add(new ConnectionInfo(0, name.strip(), ConnectionInfo.Kind.LIBVIRT, uri.strip(), "",
                Optional.empty()));
    }

    /**
     * Saves a Proxmox VE cluster reached with an API token; the token secret goes to the secret store, the
     * accepted certificate fingerprint (if the system does not trust the certificate) with the connection.
     */
    public ConnectionInfo addProxmox(String name, String url, String tokenId, char[] secret, Optional<String> fingerprint)
            throws StoreException, SecretStoreException {
        String ref = "pve:" + name.strip() + ":token";
        try {
            if (!secrets.store().isUnlocked()) {
                throw new SecretStoreException("API token secrets are kept in the encrypted vault: set it up or unlock it"
                        + " in Preferences first");
            }
            secrets.store().put(ref, secret);
        } finally {
            Arrays.fill(secret, '\0');
        }
        return repository.add(new ConnectionInfo(0, name.strip(), ConnectionInfo.Kind.PROXMOX, url.strip(), tokenId.strip(),
                Optional.of(ref), fingerprint));
    }

    /** The Demo lab: a simulated Proxmox VE cluster inside GPUForge. */
    public ConnectionInfo addDemo(String name) throws StoreException {
        return repository.add(new ConnectionInfo(0, name.strip(), ConnectionInfo.Kind.DEMO, "simulated", "",
                Optional.empty()));
    }

    public void delete(ConnectionInfo c) throws StoreException, SecretStoreException {
        repository.delete(c.id());
        if (c.secretRef().isPresent() && secrets.store().isUnlocked()) {
            secrets.store().delete(c.secretRef().get());
        }
    }
}
