package io.gpuforge.app.connections;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionOptions;
import java.util.Optional;

/** What a connection to be saved must satisfy, and the names its secrets are kept under. Pure. */
final class ConnectionRules {

    private ConnectionRules() {
    }

    static void checkOptions(ConnectionDraft draft, ConnectionOptions options) {
        if (draft.kind() != ConnectionInfo.Kind.SSH && !options.isNone()) {
            throw new IllegalArgumentException("Login options (SSH agent, key file, sudo) are for SSH hosts; a "
                    + draft.kind().db() + " connection has none");
        }
    }

    static void checkSecret(ConnectionDraft draft, Optional<char[]> secret, boolean adding) {
        if (draft.secretWord().isEmpty() && secret.isPresent()) {
            throw new IllegalArgumentException("A " + draft.kind().db() + " connection keeps no password or token");
        }
        boolean empty = secret.map(s -> s.length == 0).orElse(false);
        if (draft.kind() == ConnectionInfo.Kind.PROXMOX && (empty || adding && secret.isEmpty())) {
            throw new IllegalArgumentException(draft.username().contains("!")
                    ? "A Proxmox VE connection needs the secret of its API token"
                    : "A Proxmox VE connection that logs in as a user needs that user's password");
        }
        if (empty) {
            throw new IllegalArgumentException("An empty password cannot be saved: leave it out to log in with SSH keys");
        }
    }

    /**
     * {@code connection:<id>:<word>} for a connection's first secret; when it is replaced, the next one is
     * {@code connection:<id>:<word>:2}, {@code :3}…, so the old one stays intact until the change commits.
     */
    static String nextRef(long id, ConnectionDraft draft, Optional<String> current) {
        String base = "connection:" + id + ":" + draft.secretWord().orElseThrow();
        if (current.isEmpty() || !current.get().startsWith(base)) {
            return base;
        }
        String rest = current.get().substring(base.length());
        if (rest.isEmpty()) {
            return base + ":2";
        }
        try {
            return base + ":" + (Integer.parseInt(rest.substring(1)) + 1);
        } catch (NumberFormatException e) {
            return base + ":2";
        }
    }
}
