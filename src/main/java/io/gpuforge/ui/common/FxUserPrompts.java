package io.gpuforge.ui.common;

import io.gpuforge.app.backends.UserPrompts;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The window's answers to a Proxmox VE login that needs the user while it runs on a background thread: the
 * one-time code of a second factor. Asks on the FX thread; the background thread waits for the answer.
 */
public final class FxUserPrompts implements UserPrompts {

    private final DialogService dialogs;
    private final I18n i18n;

    public FxUserPrompts(DialogService dialogs, I18n i18n) {
        this.dialogs = dialogs;
        this.i18n = i18n;
    }

    @Override
    public Optional<String> oneTimeCode(String connection, String user) {
        return onFx(() -> dialogs.askSecret("console.login.totp.title", i18n.get("console.login.totp.text", user,
                connection)).map(code -> {
                    String s = new String(code).strip();
                    Arrays.fill(code, '\0');
                    return s;
                }));
    }

    private static <T> Optional<T> onFx(Supplier<Optional<T>> ask) {
        return FxThread.askAndWait("a login prompt", ask, Optional.empty());
    }
}
