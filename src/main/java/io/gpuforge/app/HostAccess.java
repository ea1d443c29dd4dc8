package io.gpuforge.app;

import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.HostException;
import io.gpuforge.domain.HostLink;
import io.gpuforge.host.HostKeyPolicy;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.LocalShell;
import io.gpuforge.host.SshShell;
import io.gpuforge.host.SshTarget;
import io.gpuforge.store.StoreException;
import io.gpuforge.store.secret.SecretStoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The one path from a {@link HostTarget} to a shell on that host, for the window and the CLI alike: this computer,
 * a sysroot, SSH with a login given on the spot or a saved connection (its secret from the secret store), or the
 * host linked to a hypervisor node. One known-hosts policy for all of them. Blocking: background threads only.
 */
public final class HostAccess {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);
    private final Optional<Path> localRoot;
    private final SecretsService secrets;
    private final ConnectionsService connections;
    private final HostLinks links;
    private final KnownHosts knownHosts;

    /**
     * @param localRoot a tree that stands for "this computer" (tests, support snapshots); empty for the real one
     * @param secrets, connections and links may be null where nothing is saved (a bare CLI context)
     */
    public HostAccess(Optional<Path> localRoot, SecretsService secrets, ConnectionsService connections, HostLinks links,
                      KnownHosts knownHosts) {
        this.localRoot = localRoot;
        this.secrets = secrets;
        this.connections = connections;
        this.links = links;
        this.knownHosts = knownHosts;
    }

    /** An open shell and what it stands for: the sysroot under which files live (empty for a real host). */
    record Opened(HostShell shell, Optional<String> sysroot, boolean sudo, String describe) implements AutoCloseable {
        @Override
        public void close() {
            shell.close();
        }
    }

    /** The tree "this computer" is read from in tests, if any. */
    Optional<Path> localRoot() {
        return localRoot;
    }

    /** Opens a shell on the target; unknown host keys go to {@code prompt}, changed ones are refused. */
    Opened open(HostTarget target, HostKeyPrompt prompt) throws HostException {
        if (target instanceof HostTarget.ThisComputer) {
            return localRoot.map(r -> new Opened(new LocalShell(), Optional.of(r.toAbsolutePath().toString()), false,
                    "sysroot:" + r)).orElseGet(() -> new Opened(new LocalShell(), Optional.empty(), false, "local"));
        }
        if (target instanceof HostTarget.Sysroot) {
            Path dir = ((HostTarget.Sysroot) target).dir();
            if (!Files.isDirectory(dir)) {
                throw new HostException("The sysroot " + dir + " is not a directory");
            }
            return new Opened(new LocalShell(), Optional.of(dir.toAbsolutePath().toString()), false, target.describe());
        }
        if (target instanceof HostTarget.Ssh) {
            SshLogin login = ((HostTarget.Ssh) target).login();
            HostKeyPolicy policy = login.acceptNewHostKey() ? HostKeyPolicy.acceptNew() : prompt::trust;
            return ssh(SshTarget.parse(login.destination(), System.getProperty("user.name")),
                    new SshShell.Credentials(login.password(), login.identity(), login.keyPassphrase()),
                    login.knownHosts().orElse(knownHosts.file()), policy);
        }
        if (target instanceof HostTarget.Saved) {
            return saved(((HostTarget.Saved) target).connection(), prompt);
        }
        if (target instanceof HostTarget.Linked) {
            HostTarget.Linked l = (HostTarget.Linked) target;
            return open(resolve(l.connection(), l.node()), prompt);
        }
        throw new HostException(target.describe() + " is read only: changes need a host (this computer, SSH or a sysroot)");
    }

    /** What a node's link points at, as a target; a clear error when the node has none. */
    HostTarget resolve(ConnectionInfo c, String node) throws HostException {
        if (links == null) {
            throw new HostException("Host links are not available here");
        }
        HostLink link;
        try {
            link = links.of(c, node).orElseThrow(() -> new HostException("No host is linked to " + node + " of "
                    + c.name() + ": link it to its SSH host (or this computer) to read its files and change it"));
        } catch (StoreException e) {
            throw new HostException("The host links could not be read: " + e.getMessage(), e);
        }
        HostLink.Target t = link.target();
        if (t instanceof HostLink.Local) {
            return new HostTarget.ThisComputer();
        }
        if (t instanceof HostLink.Adhoc) {
            return new HostTarget.Ssh(SshLogin.of(((HostLink.Adhoc) t).userAtHost()));
        }
        long id = ((HostLink.SavedSsh) t).connectionId();
        try {
            return new HostTarget.Saved(connections.all().stream().filter(x -> x.id() == id).findFirst()
                    .orElseThrow(() -> new HostException("The SSH host linked to " + node + " was removed: link " + node
                            + " again")));
        } catch (StoreException e) {
            throw new HostException("The saved connections could not be read: " + e.getMessage(), e);
        }
    }

    private Opened saved(ConnectionInfo c, HostKeyPrompt prompt) throws HostException {
        if (c.kind() != ConnectionInfo.Kind.SSH) {
            throw new HostException(c.name() + " is a " + c.kind().db() + " connection, not an SSH host");
        }
        SshTarget target = SshTarget.parse(c.username() + "@" + c.address(), c.username());
        Optional<char[]> password = Optional.empty();
        if (c.secretRef().isPresent() && secrets != null) {
            try {
                password = secrets.store().get(c.secretRef().get());
            } catch (SecretStoreException e) {
                throw new HostException("The password of " + c.name() + " is in the secret store, which says: "
                        + e.getMessage(), e);
            }
        }
        return ssh(target, new SshShell.Credentials(password, Optional.empty(), Optional.empty()), knownHosts.file(),
                prompt::trust);
    }

    private static Opened ssh(SshTarget target, SshShell.Credentials credentials, Path knownHostsFile,
                              HostKeyPolicy policy) throws HostException {
        SshShell shell = SshShell.connect(target, credentials, knownHostsFile, policy, CONNECT_TIMEOUT);
        return new Opened(shell, Optional.empty(), !"root".equals(shell.user()), shell.describe());
    }
}
