package io.gpuforge.host.ssh;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Asks the person at the keyboard for what an SSH login needs, as {@code ssh} does: the passphrase of an encrypted
 * key, a password. Called from SSH threads while the login waits (the wait is not counted against its timeout).
 * Where nobody can be asked (a script, no terminal), {@link #canAsk} is false and the hints say how to give it.
 */
public interface SshPrompts {

    /** The passphrase of {@code key}; {@code again} after a wrong one. Empty: cancelled or none. The caller wipes it. */
    Optional<char[]> passphrase(Path key, boolean again);

    /** The password of {@code userAtHost}; {@code again} after a refused one. Empty: cancelled or none. */
    Optional<char[]> password(String userAtHost, boolean again);

    /** Whether anybody can be asked; when not, nothing is. */
    default boolean canAsk() {
        return true;
    }

    /** How to give the passphrase of {@code key} when it could not be asked, for the error message. */
    default String passphraseHint(Path key) {
        return "add the key to the SSH agent (ssh-add " + key + ")";
    }

    /** How to give a password when it could not be asked, for the error message; empty when there is nothing to add. */
    default String passwordHint() {
        return "";
    }

    /** {@code key} was decrypted with {@code passphrase} as typed at {@link #passphrase} (to remember it, if wanted). */
    default void decrypted(Path key, char[] passphrase) {
    }

    /** Nobody to ask; the hints for the error message. */
    static SshPrompts none(String keyHint, String loginHint) {
        return new SshPrompts() {
            @Override
            public Optional<char[]> passphrase(Path key, boolean again) {
                return Optional.empty();
            }

            @Override
            public Optional<char[]> password(String userAtHost, boolean again) {
                return Optional.empty();
            }

            @Override
            public boolean canAsk() {
                return false;
            }

            @Override
            public String passphraseHint(Path key) {
                return keyHint.isEmpty() ? SshPrompts.super.passphraseHint(key)
                        : keyHint + ", or " + SshPrompts.super.passphraseHint(key);
            }

            @Override
            public String passwordHint() {
                return loginHint;
            }
        };
    }

    /** Nobody to ask, nothing more to say (tests, background work). */
    static SshPrompts none() {
        return none("", "");
    }
}
