package io.gpuforge.app.session;

import io.gpuforge.domain.connections.ConnectionInfo;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * A hypervisor named on the spot rather than saved (the CLI's {@code --pve URL} or {@code --libvirt URI}): its kind,
 * address, and for Proxmox VE either an API token ({@code user} = {@code USER@REALM!ID}, {@code secret} = its secret)
 * or a password login ({@code passwordLogin}), and the certificate fingerprint to pin.
 */
public record AdhocHypervisor(ConnectionInfo.Kind kind, String address, String user, Optional<char[]> secret,
                              boolean passwordLogin, Optional<String> fingerprint) {

    public AdhocHypervisor {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(address);
        Objects.requireNonNull(user);
        Objects.requireNonNull(secret);
        Objects.requireNonNull(fingerprint);
    }

    public static AdhocHypervisor libvirt(String uri) {
        return new AdhocHypervisor(ConnectionInfo.Kind.LIBVIRT, uri, "", Optional.empty(), false, Optional.empty());
    }

    /** A connection record to show (no id, no stored secret). */
    ConnectionInfo asConnection() {
        return new ConnectionInfo(0, kind.db() + ":" + address, kind, address, user, Optional.empty(), fingerprint);
    }

    public void wipe() {
        secret.ifPresent(s -> Arrays.fill(s, '\0'));
    }

    @Override
    public String toString() {
        return "AdhocHypervisor[" + kind.db() + " " + address + (user.isEmpty() ? "" : " as " + user)
                + (secret.isPresent() ? (passwordLogin ? ", password" : ", token secret") : "") + "]";
    }
}
