package io.gpuforge.app.connections;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionInfo.Kind;
import io.gpuforge.host.ssh.SshTarget;
import io.gpuforge.hypervisor.proxmox.PveCredentials;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A connection as the user typed it, checked and normalised, before it is saved or an existing one is
 * changed: what to reach and as whom, never its secret (that travels beside it, as a {@code char[]} the
 * service wipes). Building one refuses a blank name and fields that do not fit the kind, with a message
 * that says what to type instead.
 */
public record ConnectionDraft(String name, Kind kind, String address, String username, Optional<String> tlsFingerprint) {

    private static final int MAX_NAME = 200;
    private static final Pattern PVE_USER = Pattern.compile("[^@!\\s]+@[^@!\\s]+");

    public ConnectionDraft {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(tlsFingerprint);
        name = checkName(name);
        address = address == null ? "" : address.strip();
        username = username == null ? "" : username.strip();
        switch (kind) {
            case SSH -> {
                if (username.isEmpty()) {
                    throw new IllegalArgumentException("An SSH host needs a user name (e.g. root)");
                }
                SshTarget.parse(username + "@" + address, username);
            }
            case LIBVIRT -> {
                if (!address.matches("[a-z0-9+]+://.*")) {
                    throw new IllegalArgumentException("Not a libvirt URI: '" + address
                            + "' (e.g. qemu:///system, qemu+ssh://root@host/system)");
                }
            }
            case PROXMOX -> {
                if (!address.matches("https://[^/\\s]+.*")) {
                    throw new IllegalArgumentException("A Proxmox VE address is its https:// URL (e.g."
                            + " https://pve.lab:8006), not '" + address + "'");
                }
                if (username.contains("!") && !PveCredentials.Token.isValidId(username)) {
                    // the token's own check says what is wrong, without echoing a secret pasted into the id
                    new PveCredentials.Token(username, "");
                }
                if (!username.contains("!") && !PVE_USER.matcher(username).matches()) {
                    throw new IllegalArgumentException("A Proxmox VE login is an API token id (USER@REALM!TOKENID,"
                            + " e.g. root@pam!gpuforge) or a user with its realm (USER@REALM, e.g. root@pam)");
                }
            }
            case DEMO -> {
                // the simulated cluster has nothing to reach
            }
        }
    }

    /** An SSH host from {@code user@host[:port]} (user root when none is given). */
    public static ConnectionDraft ssh(String name, String userAtHost) {
        SshTarget t = SshTarget.parse(userAtHost, "root");
        String address = (t.host().contains(":") ? "[" + t.host() + "]" : t.host()) + (t.port() == 22 ? "" : ":" + t.port());
        return new ConnectionDraft(name, Kind.SSH, address, t.user(), Optional.empty());
    }

    /** A libvirt connection (any URI libvirt accepts). */
    public static ConnectionDraft libvirt(String name, String uri) {
        return new ConnectionDraft(name, Kind.LIBVIRT, uri, "", Optional.empty());
    }

    /**
     * A Proxmox VE cluster reached with the API token {@code tokenId} ({@code USER@REALM!TOKENID}), or with the
     * password of the user {@code USER@REALM}, with the certificate fingerprint accepted.
     */
    public static ConnectionDraft proxmox(String name, String url, String tokenId, Optional<String> fingerprint) {
        return new ConnectionDraft(name, Kind.PROXMOX, url, tokenId, fingerprint.map(String::strip));
    }

    /** The Demo lab: a simulated Proxmox VE cluster inside GPUForge. */
    public static ConnectionDraft demo(String name) {
        return new ConnectionDraft(name, Kind.DEMO, "simulated", "", Optional.empty());
    }

    /** What a secret is for this kind, in messages; empty when the kind keeps none. */
    Optional<String> secretWord() {
        return switch (kind) {
            case SSH -> Optional.of("password");
            case PROXMOX -> Optional.of(username.contains("!") ? "token" : "password");
            case LIBVIRT, DEMO -> Optional.empty();
        };
    }

    /** The saved connection this draft becomes, with the given id and secret ref. */
    ConnectionInfo toInfo(long id, Optional<String> secretRef) {
        return new ConnectionInfo(id, name, kind, address, username, secretRef, tlsFingerprint);
    }

    private static String checkName(String name) {
        String n = name == null ? "" : name.strip();
        if (n.isEmpty()) {
            throw new IllegalArgumentException("A connection needs a name");
        }
        if (n.length() > MAX_NAME || n.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("A connection name is one line of at most " + MAX_NAME + " characters");
        }
        return n;
    }
}
