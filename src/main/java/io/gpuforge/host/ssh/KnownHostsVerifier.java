package io.gpuforge.host.ssh;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.sshd.client.config.hosts.KnownHostEntry;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.RejectAllServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.SshConstants;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.util.net.SshdSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * known_hosts checking like OpenSSH, over several OpenSSH-format files read together (the user's
 * {@code ~/.ssh/known_hosts} and GPUForge's own): a known key passes, an unknown key goes to the {@link HostKeyPolicy}
 * and, when accepted, is written to one chosen file; a changed key is refused. A host is looked up under the name
 * it is known by ({@code [host]:port}), also when it is reached through a jump host's forwarded port. The last
 * refusal is kept so the error can show both fingerprints and the file that holds the old key.
 */
public final class KnownHostsVerifier extends KnownHostsServerKeyVerifier {

    private static final Logger LOG = LoggerFactory.getLogger(KnownHostsVerifier.class);

    /** Why the last verification failed, for the error message. */
    enum Reason { UNKNOWN, STRICT, CHANGED, REVOKED }

    private static final Path DEV_NULL = Path.of("/dev/null");

    /**
     * Why the last verification failed, for the error message: the file is the one holding the old key (changed)
     * or the {@code @revoked} line (revoked).
     */
    record Refusal(Reason reason, String host, String expectedFingerprint, String actualFingerprint,
                   Optional<Path> file) {
        boolean changed() {
            return reason == Reason.CHANGED;
        }
    }

    private final Function<ClientSession, HostKeyTrust> trust;
    private final HostKeyPolicy policy;
    private final Function<ClientSession, Optional<SshdSocketAddress>> names;
    private final Map<KnownHostEntry, Path> origin = new IdentityHashMap<>();
    private volatile Refusal refusal;

    /**
     * @param trust    for a session's host: the files checked and written, its alias, its StrictHostKeyChecking
     * @param fallback the file sshd is told about (every write goes to the host's own {@link HostKeyTrust#write})
     * @param names    the name a session's host is known by, when it is not the address connected to
     */
    KnownHostsVerifier(Function<ClientSession, HostKeyTrust> trust, Path fallback, HostKeyPolicy policy,
                       Function<ClientSession, Optional<SshdSocketAddress>> names) {
        super(RejectAllServerKeyVerifier.INSTANCE, fallback);
        this.trust = trust;
        this.policy = policy;
        this.names = names;
    }

    static String fingerprint(PublicKey key) {
        return KeyUtils.getFingerPrint(key);
    }

    @Override
    public boolean verifyServerKey(ClientSession session, SocketAddress remote, PublicKey key) {
        List<HostEntryPair> known = new ArrayList<>();
        for (Path f : trust.apply(session).read()) {
            if (!Files.isRegularFile(f)) {
                continue;
            }
            try {
                for (HostEntryPair p : reloadKnownHosts(session, f)) {
                    known.add(p);
                    synchronized (origin) {
                        origin.put(p.getHostEntry(), f);
                    }
                }
            } catch (IOException | GeneralSecurityException | RuntimeException e) {
                LOG.warn("The known hosts file {} could not be read: {}", f, e.toString());
            }
        }
        return acceptKnownHostEntries(session, remote, key, known);
    }

    /** The name a host is known by: {@code host} for port 22, {@code [host]:port} otherwise; one name, as OpenSSH. */
    @Override
    protected Collection<SshdSocketAddress> resolveHostNetworkIdentities(ClientSession session, SocketAddress remote) {
        return List.of(name(session, remote));
    }

    /**
     * Lowercased, as OpenSSH looks names up: a hashed entry matches only the exact bytes hashed, so {@code PVE1.lab}
     * must find the key remembered for {@code pve1.lab} (and meet another key as changed, not unknown).
     */
    private SshdSocketAddress name(ClientSession session, SocketAddress remote) {
        Optional<String> alias = trust.apply(session).alias();
        if (alias.isPresent()) {
            // HostKeyAlias: the key is known under the alias alone, as OpenSSH looks it up and writes it
            return new SshdSocketAddress(alias.get(), SshConstants.DEFAULT_PORT);
        }
        SshdSocketAddress a = names.apply(session).orElseGet(() -> SshdSocketAddress.toSshdSocketAddress(
                session.getConnectAddress() != null ? session.getConnectAddress() : remote));
        return new SshdSocketAddress(a.getHostName().toLowerCase(Locale.ROOT), a.getPort());
    }

    @Override
    protected boolean acceptUnknownHostKey(ClientSession session, SocketAddress remote, PublicKey key) {
        String host = name(session, remote).getHostName();
        HostKeyTrust t = trust.apply(session);
        boolean accepted = t.strict() == HostKeyTrust.Strict.ACCEPT_NEW || t.strict() == HostKeyTrust.Strict.ASK
                && policy.acceptNewKey(host, KeyUtils.getKeyType(key), fingerprint(key));
        if (!accepted) {
            refusal = new Refusal(t.strict() == HostKeyTrust.Strict.YES ? Reason.STRICT : Reason.UNKNOWN, host, null,
                    fingerprint(key), Optional.empty());
            return false;
        }
        Path file = t.write();
        if (file.equals(DEV_NULL)) {
            return true;
        }
        try {
            privateDirectories(file.toAbsolutePath().getParent());
            updateKnownHostsFile(session, remote, key, file, List.of());
        } catch (Exception e) {
            LOG.warn("The host key of {} was accepted but could not be written to {}: {}", host, file, e.toString());
        }
        return true;
    }

    /**
     * Makes the directories of a known_hosts file that are missing readable by the user only, as OpenSSH keeps
     * {@code ~/.ssh} (directories that exist are left as they are).
     */
    static void privateDirectories(Path dir) throws IOException {
        if (dir == null || Files.isDirectory(dir)) {
            return;
        }
        privateDirectories(dir.getParent());
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (FileAlreadyExistsException e) {
            // made meanwhile
        } catch (UnsupportedOperationException e) {
            Files.createDirectories(dir);
        }
    }

    @Override
    public boolean acceptModifiedServerKey(ClientSession session, SocketAddress remote, KnownHostEntry entry,
                                           PublicKey expected, PublicKey actual) {
        Path file;
        synchronized (origin) {
            file = origin.get(entry);
        }
        refusal = new Refusal(Reason.CHANGED, name(session, remote).getHostName(), fingerprint(expected), fingerprint(actual),
                Optional.ofNullable(file));
        return false;
    }

    /** A key an administrator marked {@code @revoked}: refused, and nothing for the user to remove. */
    @Override
    protected void handleRevokedKey(ClientSession session, SocketAddress remote, PublicKey key) {
        Optional<Path> file;
        synchronized (origin) {
            file = origin.entrySet().stream().filter(e -> "revoked".equalsIgnoreCase(e.getKey().getMarker())
                    && holds(e.getKey(), key)).map(Map.Entry::getValue).findFirst();
        }
        refusal = new Refusal(Reason.REVOKED, name(session, remote).getHostName(), null, fingerprint(key), file);
    }

    private static boolean holds(KnownHostEntry entry, PublicKey key) {
        try {
            return entry.getKeyEntry() != null
                    && KeyUtils.compareKeys(entry.getKeyEntry().resolvePublicKey(null, null, null), key);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    Refusal refusal() {
        return refusal;
    }
}
