package io.gpuforge.ui.common;

import io.gpuforge.app.host.HostKeyPrompt;

/**
 * Asks on the FX thread whether to trust a host key seen for the first time, showing its fingerprint;
 * called from a background thread, which waits for the answer.
 */
public final class FxHostKeyPrompt implements HostKeyPrompt {

    private final DialogService dialogs;
    private final I18n i18n;

    public FxHostKeyPrompt(DialogService dialogs, I18n i18n) {
        this.dialogs = dialogs;
        this.i18n = i18n;
    }

    @Override
    public boolean trust(String host, String keyType, String fingerprint) {
        return FxThread.askAndWait("host key prompt", () -> dialogs.confirm("hostkey.title",
                i18n.get("hostkey.text", host, keyType, fingerprint)), false);
    }
}
