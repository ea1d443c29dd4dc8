package io.gpuforge.domain;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A saved connection: what to reach and as whom; its secret (password, API token secret) lives in the
 * secret store under {@code secretRef}. {@code address} is {@code host[:port]} for SSH, the URI for libvirt,
 * the URL for Proxmox VE; {@code tlsFingerprint} is the certificate fingerprint the user accepted.
 */
public record ConnectionInfo(long id, String name, Kind kind, String address, String username,
                             Optional<String> secretRef, Optional<String> tlsFingerprint) {

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
        if (name.isBlank()) {
            throw new IllegalArgumentException("a connection needs a name");
        }
    }

    /** A connection without a pinned certificate. */
    public ConnectionInfo(long id, String name, Kind kind, String address, String username, Optional<String> secretRef) {
        this(id, name, kind, address, username, secretRef, Optional.empty());
    }

    public ConnectionInfo withId(long newId) {
        return new ConnectionInfo(newId, name, kind, address, username, secretRef, tlsFingerprint);
    }
}
