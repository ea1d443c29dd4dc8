package io.gpuforge.app;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * How to log in to a host over SSH when nothing is saved: the destination as typed ({@code user@host[:port]}, or a
 * {@code Host} alias of {@code ~/.ssh/config}), a password or a key file with its passphrase when given, the
 * known-hosts file to check against, and whether a host key never seen before may be accepted (OpenSSH's
 * accept-new; a changed key is always refused). Without password or key: the SSH agent and the default keys.
 */
public record SshLogin(String destination, Optional<char[]> password, Optional<Path> identity,
                       Optional<char[]> keyPassphrase, Optional<Path> knownHosts, boolean acceptNewHostKey) {

    public SshLogin {
        Objects.requireNonNull(destination);
        Objects.requireNonNull(password);
        Objects.requireNonNull(identity);
        Objects.requireNonNull(keyPassphrase);
        Objects.requireNonNull(knownHosts);
    }

    public static SshLogin of(String destination) {
        return new SshLogin(destination, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false);
    }

    /** Wipes the password and passphrase copies this login holds. */
    public void wipe() {
        password.ifPresent(p -> Arrays.fill(p, '\0'));
        keyPassphrase.ifPresent(p -> Arrays.fill(p, '\0'));
    }

    @Override
    public String toString() {
        return "SshLogin[" + destination + (password.isPresent() ? ", password" : "")
                + identity.map(i -> ", key " + i).orElse("") + (keyPassphrase.isPresent() ? " (with passphrase)" : "")
                + knownHosts.map(k -> ", known hosts " + k).orElse("") + (acceptNewHostKey ? ", accept new keys" : "") + "]";
    }
}
