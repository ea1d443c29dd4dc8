package io.gpuforge.app.backends;

import io.gpuforge.app.host.LoginPrompt;
import java.util.Optional;

/**
 * Asks the user, while a Proxmox VE login runs on a background thread, for what cannot be stored ahead: the
 * one-time code of a second factor (the TOTP step). The window asks in a dialog (and waits on the background
 * thread). Empty answers mean the user cancelled. SSH passphrases and passwords are asked through
 * {@link LoginPrompt}, not here.
 */
public interface UserPrompts {

    /** The current one-time code for {@code user} of {@code connection}. */
    Optional<String> oneTimeCode(String connection, String user);

    /** Asks nobody: every question is answered "cancelled" (scripts, tests, before the window is up). */
    static UserPrompts none() {
        return new UserPrompts() {
            @Override
            public Optional<String> oneTimeCode(String connection, String user) {
                return Optional.empty();
            }
        };
    }
}
