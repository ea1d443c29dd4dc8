package io.gpuforge.testing;

import io.gpuforge.app.host.LoginPrompt;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Answers an SSH login as a user at the window would: the host key trusted, the key's passphrase given (and
 * remembered or not), no password; notes what was asked, in order.
 */
public final class WindowAnswers implements LoginPrompt {

    public final List<String> asked = new ArrayList<>();
    private final String passphrase;
    private final boolean remember;

    public WindowAnswers(String passphrase, boolean remember) {
        this.passphrase = passphrase;
        this.remember = remember;
    }

    @Override
    public Optional<char[]> askPassphrase(Path keyFile, boolean again) {
        asked.add("passphrase " + keyFile + (again ? " again" : ""));
        return Optional.of(passphrase.toCharArray());
    }

    @Override
    public Optional<char[]> askPassword(String userAtHost, boolean again) {
        asked.add("password " + userAtHost);
        return Optional.empty();
    }

    @Override
    public boolean rememberPassphrase(Path keyFile) {
        asked.add("remember " + keyFile);
        return remember;
    }

    @Override
    public boolean trust(String host, String keyType, String fingerprint) {
        asked.add("trust " + host);
        return true;
    }
}
