package io.gpuforge.app.host;

import io.gpuforge.host.ssh.SshPrompts;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * The SSH layer's questions put to a {@link LoginPrompt}, and the passphrase the user typed for a key that it
 * decrypted, kept (as a copy) until the login is over so it can be remembered for a saved host.
 */
final class LoginPrompts implements SshPrompts, AutoCloseable {

    private final LoginPrompt prompt;
    private Path typedFor;
    private char[] typed;

    LoginPrompts(LoginPrompt prompt) {
        this.prompt = prompt;
    }

    @Override
    public Optional<char[]> passphrase(Path key, boolean again) {
        return prompt.askPassphrase(key, again);
    }

    @Override
    public Optional<char[]> password(String userAtHost, boolean again) {
        return prompt.askPassword(userAtHost, again);
    }

    @Override
    public boolean canAsk() {
        return prompt.canAsk();
    }

    @Override
    public String passphraseHint(Path key) {
        String agent = SshPrompts.super.passphraseHint(key);
        return prompt.passphraseHint().isEmpty() ? agent : prompt.passphraseHint() + ", or " + agent;
    }

    @Override
    public String passwordHint() {
        return prompt.passwordHint();
    }

    @Override
    public synchronized void decrypted(Path key, char[] passphrase) {
        wipe();
        typedFor = key;
        typed = passphrase.clone();
    }

    /** The key a typed passphrase decrypted, and a copy of it; empty when none was typed. */
    synchronized Optional<Path> typedFor() {
        return Optional.ofNullable(typedFor);
    }

    synchronized Optional<char[]> typed() {
        return Optional.ofNullable(typed).map(char[]::clone);
    }

    private void wipe() {
        if (typed != null) {
            Arrays.fill(typed, '\0');
        }
        typed = null;
        typedFor = null;
    }

    @Override
    public synchronized void close() {
        wipe();
    }
}
