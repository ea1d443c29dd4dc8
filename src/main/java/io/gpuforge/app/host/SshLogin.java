package io.gpuforge.app.host;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * How to log in to a host over SSH, for a login given on the spot (the command line's {@code --ssh}) and for a saved
 * SSH host alike: the destination ({@code user@host[:port]}, or a {@code Host} alias of {@code ~/.ssh/config}); a
 * password, a key file and its passphrase when given; the known-hosts file to use instead of the usual ones; whether a
 * host key never seen before may be accepted (OpenSSH's accept-new; a changed key is always refused); another SSH
 * config instead of {@code ~/.ssh/config}; whether to ask the SSH agent; and who to ask for what is missing. Beyond
 * what is given: the agent's keys, the config's, the default keys.
 */
public record SshLogin(String destination, Optional<char[]> password, Optional<Path> identity,
                       Optional<char[]> keyPassphrase, Optional<Path> knownHosts, boolean acceptNewHostKey,
                       Optional<Path> sshConfig, boolean agent, LoginPrompt prompt) {

    public SshLogin {
        Objects.requireNonNull(destination);
        Objects.requireNonNull(password);
        Objects.requireNonNull(identity);
        Objects.requireNonNull(keyPassphrase);
        Objects.requireNonNull(knownHosts);
        Objects.requireNonNull(sshConfig);
        Objects.requireNonNull(prompt);
    }

    /** The user's SSH config and agent, nobody to ask. */
    public SshLogin(String destination, Optional<char[]> password, Optional<Path> identity,
                    Optional<char[]> keyPassphrase, Optional<Path> knownHosts, boolean acceptNewHostKey) {
        this(destination, password, identity, keyPassphrase, knownHosts, acceptNewHostKey, Optional.empty(), true,
                LoginPrompt.none());
    }

    public static SshLogin of(String destination) {
        return new SshLogin(destination, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false);
    }

    public SshLogin withPassword(Optional<char[]> p) {
        return new SshLogin(destination, p, identity, keyPassphrase, knownHosts, acceptNewHostKey, sshConfig, agent,
                prompt);
    }

    public SshLogin withIdentity(Optional<Path> key, Optional<char[]> passphrase) {
        return new SshLogin(destination, password, key, passphrase, knownHosts, acceptNewHostKey, sshConfig, agent,
                prompt);
    }

    /** Another SSH config than {@code ~/.ssh/config} ({@code ssh -F FILE}; {@code /dev/null} for none). */
    public SshLogin withSshConfig(Optional<Path> config) {
        return new SshLogin(destination, password, identity, keyPassphrase, knownHosts, acceptNewHostKey, config, agent,
                prompt);
    }

    /** Whether the SSH agent ({@code SSH_AUTH_SOCK}) is asked for keys. */
    public SshLogin withAgent(boolean useAgent) {
        return new SshLogin(destination, password, identity, keyPassphrase, knownHosts, acceptNewHostKey, sshConfig,
                useAgent, prompt);
    }

    public SshLogin withPrompt(LoginPrompt p) {
        return new SshLogin(destination, password, identity, keyPassphrase, knownHosts, acceptNewHostKey, sshConfig,
                agent, p);
    }

    /** Wipes the password and passphrase copies this login holds. */
    public void wipe() {
        password.ifPresent(p -> Arrays.fill(p, '\0'));
        keyPassphrase.ifPresent(p -> Arrays.fill(p, '\0'));
    }

    @Override
    public String toString() {
        return "SshLogin[" + destination + (password.isPresent() ? ", password" : "")
                + identity.map(i -> ", key " + i).orElse("") + (keyPassphrase.isPresent() ? " (with passphrase)" : "")
                + knownHosts.map(k -> ", known hosts " + k).orElse("") + (acceptNewHostKey ? ", accept new keys" : "")
                + sshConfig.map(c -> ", config " + c).orElse("") + (agent ? "" : ", no agent") + "]";
    }
}
