package io.gpuforge.cli.common;

import io.gpuforge.app.host.SshLogin;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How a command logs in to a host it names with {@code --ssh}, the same in every command that does (the host commands,
 * {@code gpu list|watch|power-limit}): OpenSSH's ways (the agent unless {@code --no-agent}, {@code ~/.ssh/config} or
 * {@code --ssh-config}, the default keys or {@code --identity}), the password from stdin, the key's passphrase from
 * {@value #PASSPHRASE_VARIABLE}, host keys checked against {@code --known-hosts} or the user's and GPUForge's own.
 */
public final class SshOptions {

    /** Where the passphrase of an encrypted key comes from when nobody can be asked. */
    static final String PASSPHRASE_VARIABLE = "GPUFORGE_SSH_KEY_PASSPHRASE";

    @Option(names = "--known-hosts", paramLabel = "FILE", description = "Check host keys against this known_hosts file"
            + " only (default: ~/.ssh/known_hosts and GPUForge's own).")
    public Path knownHosts;

    @Option(names = "--accept-new-host-key",
            description = "Accept and remember a host key never seen before; a changed key is still refused.")
    public boolean acceptNew;

    @Option(names = "--identity", paramLabel = "FILE", description = "Private key file (passphrase from "
            + PASSPHRASE_VARIABLE + ", else asked on the terminal).")
    public Path identity;

    @Option(names = "--password-stdin", description = "Read the SSH password from the first line of stdin.")
    boolean passwordStdin;

    @Option(names = "--ssh-config", paramLabel = "FILE", description = "Read this OpenSSH client config instead of"
            + " ~/.ssh/config (Host, HostName, User, Port, IdentityFile, ProxyJump); /dev/null for none.")
    public Path sshConfig;

    @Option(names = "--no-agent", description = "Do not ask the SSH agent (SSH_AUTH_SOCK) for keys.")
    public boolean noAgent;

    /** The password given on stdin ({@code --password-stdin}); read once, when the login is made. */
    public Optional<char[]> password(CliServices services) throws IOException {
        return passwordStdin ? Optional.ofNullable(services.readLine()).map(String::toCharArray) : Optional.empty();
    }

    /** The key's passphrase from {@value #PASSPHRASE_VARIABLE}. */
    Optional<char[]> passphrase(CliServices services) {
        return services.env(PASSPHRASE_VARIABLE).map(String::toCharArray);
    }

    /** The login to {@code destination} these options make. */
    SshLogin login(String destination, CliServices services) throws IOException {
        return new SshLogin(destination, password(services), Optional.ofNullable(identity), passphrase(services),
                Optional.ofNullable(knownHosts), acceptNew, Optional.ofNullable(sshConfig), !noAgent,
                new HostSource.TerminalLoginPrompt(System.console(), passwordStdin));
    }
}
