package io.gpuforge.ui.common;

import io.gpuforge.app.host.LoginPrompt;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The window's answers to an SSH login, as {@code ssh} asks on a terminal: the passphrase of an encrypted key, a
 * password (both in a masked field), whether to keep a typed passphrase for this saved host in GPUForge's secret
 * store, and whether to trust a host key seen for the first time ({@link FxHostKeyPrompt}). Called from a background
 * thread, which waits for the answer; the dialogs are shown on the FX thread.
 */
public final class FxLoginPrompt implements LoginPrompt {

    private final DialogService dialogs;
    private final I18n i18n;
    private final FxHostKeyPrompt hostKeys;

    public FxLoginPrompt(DialogService dialogs, I18n i18n) {
        this.dialogs = dialogs;
        this.i18n = i18n;
        this.hostKeys = new FxHostKeyPrompt(dialogs, i18n);
    }

    @Override
    public Optional<char[]> askPassphrase(Path keyFile, boolean again) {
        return onFx(() -> dialogs.askSecret("sshlogin.passphrase.title",
                i18n.get(again ? "sshlogin.passphrase.again" : "sshlogin.passphrase.text", keyFile.toString())),
                Optional.empty());
    }

    @Override
    public Optional<char[]> askPassword(String userAtHost, boolean again) {
        return onFx(() -> dialogs.askSecret("sshlogin.password.title",
                i18n.get(again ? "sshlogin.password.again" : "sshlogin.password.text", userAtHost)), Optional.empty());
    }

    @Override
    public boolean rememberPassphrase(Path keyFile) {
        return onFx(() -> dialogs.confirm("sshlogin.remember.title",
                i18n.get("sshlogin.remember.text", keyFile.toString())), false);
    }

    @Override
    public boolean trust(String host, String keyType, String fingerprint) {
        return hostKeys.trust(host, keyType, fingerprint);
    }

    private static <T> T onFx(Supplier<T> dialog, T otherwise) {
        return FxThread.askAndWait("login prompt", dialog, otherwise);
    }
}
