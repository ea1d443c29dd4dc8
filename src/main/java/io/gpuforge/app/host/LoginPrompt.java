package io.gpuforge.app.host;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Asks the user, as {@code ssh} does, for what an SSH login is missing: the passphrase of an encrypted key, a
 * password. The window answers with dialogs, the command line on its terminal (without echo). Also a
 * {@link HostKeyPrompt}, so the window can hand one object wherever a host is opened. Called from background threads,
 * which wait for the answer; every answer is a fresh array the caller wipes.
 */
public interface LoginPrompt extends HostKeyPrompt {

    /** The passphrase of {@code keyFile}; {@code again} after a wrong one. Empty: cancelled. */
    Optional<char[]> askPassphrase(Path keyFile, boolean again);

    /** The password of {@code userAtHost}; {@code again} after a refused one. Empty: cancelled. */
    Optional<char[]> askPassword(String userAtHost, boolean again);

    /**
     * After a login with a passphrase typed for {@code keyFile}: whether to keep it in the secret store for this
     * saved host (asked only for saved hosts).
     */
    default boolean rememberPassphrase(Path keyFile) {
        return false;
    }

    /** Whether anyone can be asked at all (a script without a terminal cannot). */
    default boolean canAsk() {
        return true;
    }

    /** How to give a passphrase without being asked, for the error message when nobody could be asked. */
    default String passphraseHint() {
        return "";
    }

    /** How to give a password without being asked, for the error message. */
    default String passwordHint() {
        return "";
    }

    /** Unknown host keys are refused unless the prompt says otherwise. */
    @Override
    default boolean trust(String host, String keyType, String fingerprint) {
        return false;
    }

    /** Nobody to ask (background work, scripts); {@code hint} says how to give a passphrase instead. */
    static LoginPrompt none(String keyHint, String loginHint) {
        return new LoginPrompt() {
            @Override
            public Optional<char[]> askPassphrase(Path keyFile, boolean again) {
                return Optional.empty();
            }

            @Override
            public Optional<char[]> askPassword(String userAtHost, boolean again) {
                return Optional.empty();
            }

            @Override
            public boolean canAsk() {
                return false;
            }

            @Override
            public String passphraseHint() {
                return keyHint;
            }

            @Override
            public String passwordHint() {
                return loginHint;
            }
        };
    }

    /** Nobody to ask, nothing to add. */
    static LoginPrompt none() {
        return none("", "");
    }
}
