package io.gpuforge.host.ssh;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The client side of SSH as OpenSSH users have it: the config file with their {@code Host} entries, the default
 * keys tried when no key is named, the agent's socket, the known_hosts files read and the one new host keys are
 * written to. Plain paths, so a test hands in a temp dir and never touches this machine's {@code ~/.ssh}.
 *
 * @param config      an OpenSSH client config ({@code ~/.ssh/config}); empty: none is read
 * @param defaultKeys tried (when they exist) if neither the login nor the config names a key
 * @param agent       the ssh-agent socket ({@code SSH_AUTH_SOCK}); empty: no agent
 * @param knownHosts  every file host keys are checked against
 * @param newHostKeys where a newly accepted host key is written (one of {@code knownHosts})
 * @param userKnownHosts   the files of {@code knownHosts} that are OpenSSH's user files ({@code ~/.ssh/known_hosts});
 *                         a host's {@code UserKnownHostsFile} in the config stands in for them (none: the files
 *                         were chosen explicitly, the config does not change them)
 * @param globalKnownHosts the system-wide files, read and never written ({@code /etc/ssh/ssh_known_hosts}); a
 *                         host's {@code GlobalKnownHostsFile} stands in for them (none: none are read)
 */
public record SshSetup(Optional<Path> config, List<Path> defaultKeys, Optional<Path> agent, List<Path> knownHosts,
                       Path newHostKeys, List<Path> userKnownHosts, List<Path> globalKnownHosts) {

    /** OpenSSH's default identities, in the order {@code ssh} tries them. */
    public static final List<String> DEFAULT_KEY_NAMES = List.of("id_ed25519", "id_ecdsa", "id_rsa");

    /** OpenSSH's default system-wide known hosts files ({@code GlobalKnownHostsFile}). */
    public static final List<Path> GLOBAL_KNOWN_HOSTS = List.of(Path.of("/etc/ssh/ssh_known_hosts"),
            Path.of("/etc/ssh/ssh_known_hosts2"));

    public SshSetup {
        Objects.requireNonNull(config);
        defaultKeys = List.copyOf(defaultKeys);
        Objects.requireNonNull(agent);
        Objects.requireNonNull(newHostKeys);
        knownHosts = List.copyOf(knownHosts.contains(newHostKeys) ? knownHosts
                : Stream.concat(knownHosts.stream(), Stream.of(newHostKeys)).toList());
        userKnownHosts = List.copyOf(userKnownHosts);
        globalKnownHosts = List.copyOf(globalKnownHosts);
    }

    /** Exactly these known hosts files: no OpenSSH user file the config could replace, no system-wide ones. */
    public SshSetup(Optional<Path> config, List<Path> defaultKeys, Optional<Path> agent, List<Path> knownHosts,
                    Path newHostKeys) {
        this(config, defaultKeys, agent, knownHosts, newHostKeys, List.of(), List.of());
    }

    /**
     * The user's OpenSSH setup: {@code sshDir/config} (when it exists), the default keys in {@code sshDir}, the
     * agent named by {@code SSH_AUTH_SOCK} in {@code environment}, and host keys as {@code ssh} checks them: also
     * {@code sshDir/known_hosts2} and the system-wide {@code /etc/ssh/ssh_known_hosts}, with the config's
     * {@code UserKnownHostsFile} and {@code GlobalKnownHostsFile} in their place where it sets them.
     */
    public static SshSetup openSsh(Path sshDir, Map<String, String> environment, List<Path> knownHosts,
                                   Path newHostKeys) {
        Optional<Path> config = Optional.of(sshDir.resolve("config")).filter(Files::isRegularFile);
        List<Path> user = List.of(sshDir.resolve("known_hosts"), sshDir.resolve("known_hosts2"));
        List<Path> read = Stream.concat(knownHosts.stream(), user.stream().filter(f -> !knownHosts.contains(f)))
                .toList();
        return new SshSetup(config, DEFAULT_KEY_NAMES.stream().map(sshDir::resolve).toList(), agent(environment),
                read, newHostKeys, user, GLOBAL_KNOWN_HOSTS);
    }

    /** Nothing of the user's but one known_hosts file, and the agent named by {@code SSH_AUTH_SOCK} if any. */
    public static SshSetup bare(Map<String, String> environment, List<Path> knownHosts, Path newHostKeys) {
        return new SshSetup(Optional.empty(), List.of(), agent(environment), knownHosts, newHostKeys);
    }

    /** The agent's socket as {@code SSH_AUTH_SOCK} names it. */
    public static Optional<Path> agent(Map<String, String> environment) {
        return Optional.ofNullable(environment.get("SSH_AUTH_SOCK")).filter(s -> !s.isBlank()).map(Path::of);
    }

    /** The same with another config file ({@code ssh -F FILE}). */
    public SshSetup withConfig(Path file) {
        return new SshSetup(Optional.of(file), defaultKeys, agent, knownHosts, newHostKeys, userKnownHosts,
                globalKnownHosts);
    }

    /** The same without the agent. */
    public SshSetup withoutAgent() {
        return new SshSetup(config, defaultKeys, Optional.empty(), knownHosts, newHostKeys, userKnownHosts,
                globalKnownHosts);
    }

    /**
     * The same checking host keys against one file only (and writing new ones there), as {@code ssh -o
     * UserKnownHostsFile=FILE -o GlobalKnownHostsFile=none}: the config's files do not change it.
     */
    public SshSetup withKnownHosts(Path file) {
        return new SshSetup(config, defaultKeys, agent, List.of(file), file);
    }
}
