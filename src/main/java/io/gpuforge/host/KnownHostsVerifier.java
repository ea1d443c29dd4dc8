package io.gpuforge.host;

import java.net.SocketAddress;
import java.nio.file.Path;
import java.security.PublicKey;
import org.apache.sshd.client.config.hosts.KnownHostEntry;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.KeyUtils;

/**
 * known_hosts checking like OpenSSH, on an OpenSSH-format file: a known key passes, an unknown key goes to
 * the {@link HostKeyPolicy} (and is stored when accepted), a changed key is refused. The fingerprints of
 * the last refusal are kept so the error can show them.
 */
final class KnownHostsVerifier extends KnownHostsServerKeyVerifier {

    /** Why the last verification failed, for the error message. */
    record Refusal(boolean changed, String expectedFingerprint, String actualFingerprint) {
    }

    private volatile Refusal refusal;

    KnownHostsVerifier(Path knownHosts, String host, HostKeyPolicy policy) {
        super((session, address, key) -> policy.acceptNewKey(host, KeyUtils.getKeyType(key), fingerprint(key)),
                knownHosts);
    }

    static String fingerprint(PublicKey key) {
        return KeyUtils.getFingerPrint(key);
    }

    @Override
    protected boolean acceptUnknownHostKey(ClientSession session, SocketAddress remote, PublicKey key) {
        boolean ok = super.acceptUnknownHostKey(session, remote, key);
        if (!ok) {
            refusal = new Refusal(false, null, fingerprint(key));
        }
        return ok;
    }

    @Override
    public boolean acceptModifiedServerKey(ClientSession session, SocketAddress remote, KnownHostEntry entry,
                                           PublicKey expected, PublicKey actual) {
        refusal = new Refusal(true, fingerprint(expected), fingerprint(actual));
        return false;
    }

    Refusal refusal() {
        return refusal;
    }
}
