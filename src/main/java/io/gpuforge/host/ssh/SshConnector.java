package io.gpuforge.host.ssh;

import io.gpuforge.host.CommandTimeoutException;
import io.gpuforge.host.ProbeException;

import io.gpuforge.bounded.BoundedStreams;
import io.gpuforge.host.ssh.SshHops.Hop;
import io.gpuforge.host.ssh.SshLoginAttempt.KeyProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.sshd.client.config.hosts.HostConfigEntry;
import org.apache.sshd.client.future.AuthFuture;
import org.apache.sshd.client.future.ConnectFuture;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.future.WaitableFuture;
import org.apache.sshd.common.session.SessionContext;
import org.apache.sshd.common.util.net.SshdSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs in over SSH the way {@code ssh} would for the same destination: the user's config (alias, HostName, Port,
 * User, IdentityFile, IdentitiesOnly, IdentityAgent, ProxyJump), the agent's keys first, then the named or default
 * key files (passphrases given, remembered or asked), then passwords (given or asked). Host keys are checked for
 * every host on the way. A failure says what was wrong: a changed or unknown host key, a key that could not be
 * decrypted, what was tried when the server said no.
 */
public final class SshConnector {

    private static final Logger LOG = LoggerFactory.getLogger(SshConnector.class);
    private static final Duration TICK = Duration.ofMillis(200);

    private SshConnector() {
    }

    static SshShell connect(SshDestination destination, SshShell.Credentials credentials, SshSetup setup,
                            HostKeyPolicy policy, Duration timeout) throws ProbeException {
        SshHops client = SshHops.create(setup.config(), System.getProperty("user.name", "root"));
        SshLoginAttempt attempt = new SshLoginAttempt(credentials.prompts(), credentials.keyPassphrase(), client::hop);
        HostConfigEntry entry;
        try {
            entry = client.resolve(destination);
        } catch (IOException | RuntimeException e) {
            throw new ProbeException("The SSH config " + setup.config().map(Path::toString).orElse("") + " could not be"
                    + " read for " + destination + ": " + SshShell.describe(e), e);
        }
        Hop target = client.hopOf(entry);
        KnownHostsVerifier verifier = new KnownHostsVerifier(s -> {
                    Hop h = hop(client, s, target);
                    return HostKeyTrust.of(setup, h.target(), h.hostKeys());
                }, setup.newHostKeys(), (host, type, fp) -> attempt.asking(() -> policy.acceptNewKey(host, type, fp)),
                s -> client.hop(s).map(h -> new SshdSocketAddress(h.target().host(), h.target().port())));
        client.setServerKeyVerifier(verifier);
        client.setKeyIdentityProvider(new SshKeyFiles(s -> keyFiles(client.hop(s).orElse(target), target, credentials,
                setup), attempt));
        client.setFilePasswordProvider(attempt);
        client.setUserInteraction(attempt);
        client.setAgentFactory(new SshAgentSocket.Factory(s -> agent(hop(client, s, target), setup), attempt));
        client.start();
        String who = target.target() + target.proxyJump().map(j -> " (through " + j + ")").orElse("");
        ClientSession session = null;
        try {
            ConnectFuture connected = client.connect(entry, null, null);
            await(connected, attempt, timeout, who);
            session = connected.verify(TICK).getSession();
            if (credentials.password().isPresent()) {
                session.addPasswordIdentity(new String(credentials.password().get()));
            }
            AuthFuture auth = session.auth();
            await(auth, attempt, timeout, who);
            auth.verify(TICK);
            return new SshShell(target.target(), client, session);
        } catch (ProbeException e) {
            SshShell.closeQuietly(session, client);
            throw e;
        } catch (IOException | RuntimeException e) {
            SshShell.closeQuietly(session, client);
            throw failure(who, e, verifier, attempt, credentials, setup);
        }
    }

    private static Hop hop(SshHops client, SessionContext s, Hop target) {
        return client.hop(s).orElse(target);
    }

    /** The key files for one host: the login's own (for the target), the config's, else the default ones. */
    private static SshKeyFiles.Choice keyFiles(Hop hop, Hop target, SshShell.Credentials c, SshSetup setup) {
        List<Path> named = new ArrayList<>();
        if (hop == target) {
            c.identity().ifPresent(named::add);
        }
        named.addAll(hop.identities());
        return named.isEmpty() ? new SshKeyFiles.Choice(setup.defaultKeys(), false) : new SshKeyFiles.Choice(named, true);
    }

    /** The agent a host uses (IdentityAgent: {@code none}, {@code SSH_AUTH_SOCK} or a socket) and the keys it offers. */
    private static Optional<SshAgentSocket.Factory.Choice> agent(Hop hop, SshSetup setup) {
        if (setup.agent().isEmpty()) {
            return Optional.empty();
        }
        Path socket = setup.agent().get();
        if (hop.identityAgent().isPresent()) {
            String a = hop.identityAgent().get();
            if ("none".equalsIgnoreCase(a)) {
                return Optional.empty();
            }
            if (!"SSH_AUTH_SOCK".equals(a)) {
                socket = Path.of(a.startsWith("~/") ? System.getProperty("user.home") + a.substring(1) : a);
            }
        }
        return Optional.of(new SshAgentSocket.Factory.Choice(socket, hop.identitiesOnly() ? only(hop.identities())
                : k -> true));
    }

    /** IdentitiesOnly: of the agent's keys, only those whose public half sits next to a named key file. */
    private static Predicate<PublicKey> only(List<Path> files) {
        List<PublicKey> mine = new ArrayList<>();
        for (Path f : files) {
            Path pub = Path.of(f + ".pub");
            try {
                if (Files.isRegularFile(pub)) {
                    mine.add(PublicKeyEntry.parsePublicKeyEntry(BoundedStreams.readString(pub, 64 * 1024).strip())
                            .resolvePublicKey(null, null, null));
                }
            } catch (IOException | GeneralSecurityException | RuntimeException e) {
                LOG.debug("The public key {} could not be read: {}", pub, e.toString());
            }
        }
        return k -> mine.stream().anyMatch(m -> KeyUtils.compareKeys(m, k));
    }

    /** Waits for a future; the time someone spends answering a question does not count. */
    private static void await(WaitableFuture f, SshLoginAttempt attempt, Duration timeout, String who)
            throws IOException, ProbeException {
        while (!f.await(TICK)) {
            if (!attempt.busyAsking() && System.nanoTime() - attempt.lastAnswer() > timeout.toNanos()) {
                throw new ProbeException("SSH to " + who + " did not get through within "
                        + CommandTimeoutException.human(timeout) + ": check that the host is up and reachable");
            }
        }
    }

    private static ProbeException failure(String who, Exception e, KnownHostsVerifier verifier,
                                          SshLoginAttempt attempt, SshShell.Credentials credentials,
                                          SshSetup setup) {
        KnownHostsVerifier.Refusal r = verifier.refusal();
        if (r != null && r.reason() == KnownHostsVerifier.Reason.REVOKED) {
            return new ProbeException("The host key of " + r.host() + " (" + r.actualFingerprint() + ") was revoked by"
                    + " an administrator: it is marked @revoked in "
                    + r.file().map(Path::toString).orElse("a known_hosts file") + ", so GPUForge refuses to connect."
                    + " There is nothing to remove: the revocation stands, and the host's administrator has to give it"
                    + " a new key (or tell you why it presents a revoked one).", e);
        }
        if (r != null && r.changed()) {
            return new ProbeException("The host key of " + r.host() + " has CHANGED: known_hosts has "
                    + r.expectedFingerprint() + ", the server now offers " + r.actualFingerprint()
                    + ". This can be a reinstalled host or someone in between; GPUForge refuses to connect."
                    + " If the change is expected, remove the old key from "
                    + r.file().map(Path::toString).orElse("the known_hosts file") + ".", e);
        }
        if (r != null && r.reason() == KnownHostsVerifier.Reason.STRICT) {
            return new ProbeException("The host key of " + r.host() + " is not known (" + r.actualFingerprint()
                    + ") and StrictHostKeyChecking is yes in " + setup.config().map(Path::toString)
                    .orElse("the SSH config") + ", so GPUForge does not ask: add the host's key to known_hosts"
                    + " (check it on the host: ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub) or change that setting.", e);
        }
        if (r != null) {
            return new ProbeException("The host key of " + r.host() + " is not known (" + r.actualFingerprint()
                    + "). Check the fingerprint on the host (ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub) and"
                    + " accept it to continue (--accept-new-host-key on the command line).", e);
        }
        String cause = SshShell.describe(e);
        List<KeyProblem> problems = attempt.problems();
        if (!cause.equals(SshShell.REFUSED) && problems.isEmpty()) {
            return new ProbeException("SSH to " + who + " failed: " + cause, e);
        }
        SshPrompts prompts = attempt.prompts();
        String keys = problems.stream().map(p -> describe(p, prompts)).distinct().collect(Collectors.joining("; "));
        List<String> tried = attempt.tried();
        StringBuilder m = new StringBuilder("SSH to " + who + " failed: ");
        if (!keys.isEmpty()) {
            m.append(keys);
            if (!tried.isEmpty()) {
                m.append(". The server accepted none of what was tried: ").append(String.join(", ", tried));
            }
        } else {
            m.append(cause);
            if (tried.isEmpty() && credentials.password().isEmpty()) {
                m.append("; no key or password was offered (no SSH agent, no key file)");
                if (!prompts.passwordHint().isEmpty()) {
                    m.append(": ").append(prompts.passwordHint());
                }
            } else if (!tried.isEmpty()) {
                m.append("; tried ").append(String.join(", ", tried));
            }
        }
        return new ProbeException(m.toString(), e);
    }

    private static String describe(KeyProblem p, SshPrompts prompts) {
        switch (p.trouble()) {
            case NO_PASSPHRASE:
                return prompts.canAsk() ? "the key " + p.key() + " is encrypted and no passphrase was entered"
                        : "the key " + p.key() + " is encrypted and no passphrase was given: " + prompts.passphraseHint(p.key());
            case WRONG_PASSPHRASE:
                return "the key " + p.key() + " could not be decrypted: wrong passphrase"
                        + (prompts.canAsk() ? "" : " (" + prompts.passphraseHint(p.key()) + ")");
            case MISSING:
                return "the key file " + p.key() + " does not exist";
            case UNPROTECTED:
                return p.detail();
            default:
                return "the key file " + p.key() + " could not be read: " + p.detail();
        }
    }
}
