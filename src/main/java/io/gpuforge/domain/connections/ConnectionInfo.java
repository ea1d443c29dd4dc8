package io.gpuforge.domain.connections;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A saved connection: what to reach and as whom; its secret (password, API token secret) lives in the
 * secret store under {@code secretRef}. {@code address} is {@code host[:port]} for SSH, the URI for libvirt,
 * the URL for Proxmox VE; {@code username} the SSH user, or the Proxmox VE API token id
 * ({@code USER@REALM!TOKENID}) or user ({@code USER@REALM}, a password login); {@code tlsFingerprint} is the
 * certificate fingerprint the user accepted; {@code options} the SSH login choices (agent, key file, sudo).
 */
public record ConnectionInfo(long id, String name, Kind kind, String address, String username,
                             Optional<String> secretRef, Optional<String> tlsFingerprint, ConnectionOptions options) {

    public enum Kind {
        SSH, PROXMOX, LIBVIRT, DEMO;

        public String db() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Kind fromDb(String s) {
            return valueOf(s.toUpperCase(Locale.ROOT));
        }
    }

    public ConnectionInfo {
        Objects.requireNonNull(name);
        Objects.requireNonNull(kind);
        Objects.requireNonNull(address);
        Objects.requireNonNull(secretRef);
        Objects.requireNonNull(tlsFingerprint);
        Objects.requireNonNull(options);
        if (name.isBlank()) {
            throw new IllegalArgumentException("a connection needs a name");
        }
    }

    /** A connection without a pinned certificate. */
    public ConnectionInfo(long id, String name, Kind kind, String address, String username, Optional<String> secretRef) {
        this(id, name, kind, address, username, secretRef, Optional.empty());
    }

    /** A connection without login options. */
    public ConnectionInfo(long id, String name, Kind kind, String address, String username, Optional<String> secretRef,
                          Optional<String> tlsFingerprint) {
        this(id, name, kind, address, username, secretRef, tlsFingerprint, ConnectionOptions.none());
    }

    /**
     * Whether it is a saved connection (a row of the connections table, id 1 and up); a hypervisor the CLI names on
     * the spot for one run is not, and has no saved secret, host links or pin of its own.
     */
    public boolean saved() {
        return id > 0;
    }

    public ConnectionInfo withId(long newId) {
        return new ConnectionInfo(newId, name, kind, address, username, secretRef, tlsFingerprint, options);
    }

    public ConnectionInfo withOptions(ConnectionOptions o) {
        return new ConnectionInfo(id, name, kind, address, username, secretRef, tlsFingerprint, o);
    }

    /**
     * How GPUForge names one of this connection's nodes as a host ({@code kind:name/node}): its GPUs' ids and the
     * host facts read from its listing begin with it.
     */
    public String nodeHost(String node) {
        return kind.db() + ":" + name + "/" + node;
    }

    /** A Proxmox VE connection that logs in with a user's password (and a one-time code when asked), not a token. */
    public boolean passwordLogin() {
        return kind == Kind.PROXMOX && !username.contains("!");
    }
}
