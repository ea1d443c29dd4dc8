package io.gpuforge.app;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Asks the user, while a login runs on a background thread, for what cannot be stored ahead: the one-time code of
 * a second factor (Proxmox VE's TOTP step), or the passphrase of an encrypted SSH key file with the choice to keep
 * it in the secret store. The window asks in a dialog (and waits on the background thread); the CLI has its own.
 * Empty answers mean the user cancelled.
 */
public interface UserPrompts {

    /** A key passphrase the user typed, and whether to keep it in the secret store. */
    record Passphrase(char[] value, boolean keep) {
        @Override
        public String toString() {
            return "Passphrase[(hidden), keep=" + keep + "]";
        }
    }

    /** The current one-time code for {@code user} of {@code connection}. */
    Optional<String> oneTimeCode(String connection, String user);

    /** The passphrase of {@code keyFile}, the key of {@code connection}. */
    Optional<Passphrase> keyPassphrase(String connection, Path keyFile);

    /** Asks nobody: every question is answered "cancelled" (scripts, tests, before the window is up). */
    static UserPrompts none() {
        return new UserPrompts() {
            @Override
            public Optional<String> oneTimeCode(String connection, String user) {
                return Optional.empty();
            }

            @Override
            public Optional<Passphrase> keyPassphrase(String connection, Path keyFile) {
                return Optional.empty();
            }
        };
    }
}
