package io.gpuforge.ui.common;

import java.util.Optional;

/**
 * Every dialog the application shows goes through here, so each one has an owner window, a localised
 * title and the same look. Messages are already-localised text; titles are bundle keys.
 */
public interface DialogService {

    void showInfo(String titleKey, String message);

    /** Short message for the user, with the technical details (stack trace) in an expandable, copyable area. */
    void showError(String titleKey, String message, Throwable details);

    boolean confirm(String titleKey, String message);

    /** Asks for a secret such as a passphrase; empty when cancelled. */
    Optional<char[]> askSecret(String titleKey, String prompt);
}
