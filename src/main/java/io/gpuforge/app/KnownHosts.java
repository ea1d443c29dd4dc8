package io.gpuforge.app;

import java.nio.file.Path;

/**
 * Where SSH host keys are checked and remembered: one policy for the window and the CLI (OpenSSH's
 * {@code ~/.ssh/known_hosts} by default, so a host trusted in one is trusted in the other).
 */
public record KnownHosts(Path file) {

    /** The user's OpenSSH known_hosts. */
    public static KnownHosts openSsh() {
        return new KnownHosts(Path.of(System.getProperty("user.home"), ".ssh", "known_hosts"));
    }
}
