package io.gpuforge.domain.connections;

import java.util.Objects;
import java.util.Optional;

/**
 * How GPUForge logs in to a saved connection, beyond address and user: for an SSH host whether to use the SSH
 * agent, which key file, whether host commands run through {@code sudo}, and where the key's passphrase is kept
 * when the user chose to keep it (a secret store ref, never the passphrase itself). Other kinds keep none of it.
 */
public record ConnectionOptions(boolean sshAgent, Optional<String> identityFile, boolean sudo,
                                Optional<String> passphraseRef) {

    public ConnectionOptions {
        Objects.requireNonNull(identityFile);
        Objects.requireNonNull(passphraseRef);
        identityFile = identityFile.map(String::strip).filter(s -> !s.isEmpty());
    }

    /** Nothing chosen: SSH tries the agent and the default keys, no sudo. */
    public static ConnectionOptions none() {
        return new ConnectionOptions(false, Optional.empty(), false, Optional.empty());
    }

    /** An SSH login: the agent or not, a key file or the default keys, sudo or not. */
    public static ConnectionOptions ssh(boolean agent, Optional<String> identityFile, boolean sudo) {
        return new ConnectionOptions(agent, identityFile, sudo, Optional.empty());
    }

    public ConnectionOptions withPassphraseRef(Optional<String> ref) {
        return new ConnectionOptions(sshAgent, identityFile, sudo, ref);
    }

    public boolean isNone() {
        return equals(none());
    }
}
