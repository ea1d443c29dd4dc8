package io.gpuforge.app.host;

import io.gpuforge.app.connections.ConnectionsService;
import io.gpuforge.app.connections.HostLinks;
import io.gpuforge.app.connections.SecretsService;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.connections.HostLink;
import io.gpuforge.host.ssh.HostKeyPolicy;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.LocalShell;
import io.gpuforge.host.ssh.SshDestination;
import io.gpuforge.host.ssh.SshSetup;
import io.gpuforge.host.ssh.SshShell;
import io.gpuforge.store.StoreException;
import io.gpuforge.store.secret.SecretStoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one path from a {@link HostTarget} to a shell on that host, for the window and the CLI alike: this computer,
 * a sysroot, SSH with a login given on the spot or a saved connection (its secret from the secret store), or the
 * host linked to a hypervisor node. One known-hosts policy and one SSH setup (the user's {@code ~/.ssh/config}, agent
 * and default keys) for all of them; what a login lacks is asked through a {@link LoginPrompt}. Blocking: background
 * threads only.
 */
public final class HostAccess {

    private static final Logger LOG = LoggerFactory.getLogger(HostAccess.class);
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);
    private final Optional<Path> localRoot;
    private final SecretsService secrets;
    private final ConnectionsService connections;
    private final HostLinks links;
    private final Supplier<KnownHosts> knownHosts;
    private final Optional<Path> sshDir;
    private final Map<String, String> environment;
    private final SimulatedHosts simulated;

    /**
     * With the SSH setup of the user running this (their {@code ~/.ssh}, {@code SSH_AUTH_SOCK}): the command line.
     *
     * @param localRoot a tree that stands for "this computer" (tests, support snapshots); empty for the real one
     * @param secrets, connections and links may be null where nothing is saved (a bare CLI context)
     */
    public HostAccess(Optional<Path> localRoot, SecretsService secrets, ConnectionsService connections, HostLinks links,
                      KnownHosts knownHosts) {
        this(localRoot, secrets, connections, links, () -> knownHosts,
                Optional.of(Path.of(System.getProperty("user.home"), ".ssh")), System.getenv());
    }

    /**
     * @param knownHosts  the known-hosts policy in force at each login (the user's choice may change meanwhile)
     * @param sshDir      the user's OpenSSH directory (config, default keys); empty: none (tests)
     * @param environment where {@code SSH_AUTH_SOCK} names the agent
     */
    public HostAccess(Optional<Path> localRoot, SecretsService secrets, ConnectionsService connections, HostLinks links,
                      Supplier<KnownHosts> knownHosts, Optional<Path> sshDir, Map<String, String> environment) {
        this(localRoot, secrets, connections, links, knownHosts, sshDir, environment, SimulatedHosts.NONE);
    }

    /** With the hosts of nodes that are simulated (the Demo lab's), asked first for a node's host. */
    public HostAccess(Optional<Path> localRoot, SecretsService secrets, ConnectionsService connections, HostLinks links,
               Supplier<KnownHosts> knownHosts, Optional<Path> sshDir, Map<String, String> environment,
               SimulatedHosts simulated) {
        this.simulated = simulated;
        this.localRoot = localRoot;
        this.secrets = secrets;
        this.connections = connections;
        this.links = links;
        this.knownHosts = knownHosts;
        this.sshDir = sshDir;
        this.environment = Map.copyOf(environment);
    }

    /** An open shell and what it stands for: the sysroot under which files live (empty for a real host). */
    public record Opened(HostShell shell, Optional<String> sysroot, boolean sudo, String describe) implements AutoCloseable {
        @Override
        public void close() {
            shell.close();
        }
    }

    /** The tree "this computer" is read from in tests, if any. */
    Optional<Path> localRoot() {
        return localRoot;
    }

    /**
     * Opens a shell on the target; unknown host keys go to {@code prompt}, changed ones are refused. When
     * {@code prompt} is a {@link LoginPrompt} it is also asked for missing passphrases and passwords.
     */
    public Opened open(HostTarget target, HostKeyPrompt prompt) throws HostException {
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
            return ssh(((HostTarget.Ssh) target).login(), prompt, Optional.empty());
        }
        if (target instanceof HostTarget.Saved) {
            ConnectionInfo c = ((HostTarget.Saved) target).connection();
            SshLogin login = loginFor(c);
            try {
                return ssh(login, prompt, Optional.of(c));
            } finally {
                login.wipe();
            }
        }
        if (target instanceof HostTarget.Linked) {
            HostTarget.Linked l = (HostTarget.Linked) target;
            Optional<Opened> sim = simulated.open(l.connection(), l.node());
            if (sim.isPresent()) {
                return sim.get();
            }
            return open(resolve(l.connection(), l.node()), prompt);
        }
        throw new HostException(target.describe() + " is read only: changes need a host (this computer, SSH or a sysroot)");
    }

    /**
     * Whether GPUForge knows the host of a node: linked to it, or a simulated host (the Demo lab's). Blocking (reads
     * the links).
     */
    public boolean hasHost(ConnectionInfo c, String node) {
        if (simulated.rebootWait(c, node).isPresent()) {
            return true;
        }
        try {
            return links != null && links.of(c, node).isPresent();
        } catch (StoreException e) {
            LOG.info("The host links could not be read: {}", e.getMessage());
            return false;
        }
    }

    /** The simulated hosts asked first for a node's host. */
    SimulatedHosts simulated() {
        return simulated;
    }

    /** What a node's link points at, as a target; a clear error when the node has none. */
    public HostTarget resolve(ConnectionInfo c, String node) throws HostException {
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

    /**
     * How a saved SSH host is logged in to: its destination (an alias of {@code ~/.ssh/config} works too), its
     * password from the secret store and the key file chosen for it; beyond that the agent, the config's and the
     * default keys. The one place that
     * maps a saved host's login choices.
     */
    SshLogin loginFor(ConnectionInfo c) throws HostException {
        if (c.kind() != ConnectionInfo.Kind.SSH) {
            throw new HostException(c.name() + " is a " + c.kind().db() + " connection, not an SSH host");
        }
        Optional<char[]> password = Optional.empty();
        if (c.secretRef().isPresent() && secrets != null) {
            try {
                password = secrets.store().get(c.secretRef().get());
            } catch (SecretStoreException e) {
                throw new HostException("The password of " + c.name() + " is in the secret store, which says: "
                        + e.getMessage(), e);
            }
        }
        String user = c.username() == null || c.username().isBlank() ? "" : c.username() + "@";
        // the key file the user chose for this host (its passphrase: remembered, else asked)
        return SshLogin.of(user + c.address()).withPassword(password)
                .withIdentity(c.options().identityFile().map(Path::of), Optional.empty());
    }

    /** The SSH setup a login uses: the user's (or none in tests), with the login's own choices on top. */
    SshSetup setup(SshLogin login) throws HostException {
        KnownHosts kh = login.knownHosts().map(KnownHosts::new).orElseGet(knownHosts);
        SshSetup s = sshDir.map(d -> SshSetup.openSsh(d, environment, kh.read(), kh.write()))
                .orElseGet(() -> SshSetup.bare(environment, kh.read(), kh.write()));
        if (login.knownHosts().isPresent()) {
            // --known-hosts FILE: that file only, whatever the config's UserKnownHostsFile or the system's say
            s = s.withKnownHosts(login.knownHosts().get());
        }
        if (login.sshConfig().isPresent()) {
            Path config = login.sshConfig().get();
            if (!Files.exists(config)) {
                throw new HostException("The SSH config " + config + " does not exist");
            }
            s = s.withConfig(config);
        }
        return login.agent() ? s : s.withoutAgent();
    }

    private Opened ssh(SshLogin login, HostKeyPrompt hostKeys, Optional<ConnectionInfo> saved) throws HostException {
        LoginPrompt asker = hostKeys instanceof LoginPrompt ? (LoginPrompt) hostKeys : login.prompt();
        HostKeyPolicy policy = login.acceptNewHostKey() ? HostKeyPolicy.acceptNew() : hostKeys::trust;
        SshSetup setup = setup(login);
        Optional<char[]> remembered = login.keyPassphrase().isPresent() ? Optional.empty()
                : saved.flatMap(this::rememberedPassphrase);
        try (LoginPrompts prompts = new LoginPrompts(asker)) {
            SshShell shell = SshShell.connect(SshDestination.parse(login.destination()), new SshShell.Credentials(
                    login.password(), login.identity(), login.keyPassphrase().or(() -> remembered), prompts),
                    setup, policy, CONNECT_TIMEOUT);
            saved.ifPresent(c -> offerToRemember(c, prompts, asker));
            return new Opened(shell, Optional.empty(), !"root".equals(shell.user()), shell.describe());
        } finally {
            remembered.ifPresent(p -> Arrays.fill(p, '\0'));
        }
    }

    private Optional<char[]> rememberedPassphrase(ConnectionInfo c) {
        if (connections == null) {
            return Optional.empty();
        }
        try {
            return connections.passphrase(c.id());
        } catch (StoreException | SecretStoreException e) {
            LOG.info("The remembered key passphrase of {} could not be read ({}); it will be asked", c.name(),
                    e.getMessage());
            return Optional.empty();
        }
    }

    /** After a login with a typed passphrase: keep it for this saved host when the user says so. */
    private void offerToRemember(ConnectionInfo c, LoginPrompts prompts, LoginPrompt asker) {
        Optional<char[]> typed = prompts.typed();
        if (typed.isEmpty() || connections == null) {
            return;
        }
        try {
            if (asker.rememberPassphrase(prompts.typedFor().orElseThrow())) {
                // recorded on the connection under its one name, so removing the connection removes it
                connections.keepPassphrase(c.id(), typed.get().clone());
            }
        } catch (StoreException | SecretStoreException | IllegalArgumentException e) {
            LOG.warn("The key passphrase of {} could not be kept in the secret store: {}", c.name(), e.getMessage());
        } finally {
            Arrays.fill(typed.get(), '\0');
        }
    }
}
