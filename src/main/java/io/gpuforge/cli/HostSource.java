package io.gpuforge.cli;

import io.gpuforge.app.HostReading;
import io.gpuforge.app.HostTarget;
import io.gpuforge.app.SshLogin;
import io.gpuforge.domain.HostException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** Where host facts come from: {@code --local | --ssh | --sysroot | --listing} (plus the SSH options). */
final class HostSource {

    static final class Which {
        @Option(names = "--local", description = "This computer (the default for reading; apply and rollback change"
                + " this computer only when it is given).")
        boolean local;

        @Option(names = "--ssh", paramLabel = "USER@HOST[:PORT]", description = "A host over SSH.")
        String ssh;

        @Option(names = "--sysroot", paramLabel = "DIR|FILE.tar.gz",
                description = "A directory that mirrors a host's /, or a snapshot made by gpuforge snapshot.")
        Path sysroot;

        @Option(names = "--listing", paramLabel = "FILE",
                description = "A pasted IOMMU group listing (optionally followed by lspci -nnk output); - for stdin.")
        String listing;
    }

    @ArgGroup(exclusive = true)
    Which which = new Which();

    @Option(names = "--known-hosts", paramLabel = "FILE", description = "OpenSSH known_hosts file (default ~/.ssh/known_hosts).")
    Path knownHosts;

    @Option(names = "--accept-new-host-key",
            description = "Accept and remember a host key never seen before; a changed key is still refused.")
    boolean acceptNew;

    @Option(names = "--identity", paramLabel = "FILE", description = "Private key file (passphrase from GPUFORGE_SSH_KEY_PASSPHRASE).")
    Path identity;

    @Option(names = "--password-stdin", description = "Read the SSH password from the first line of stdin.")
    boolean passwordStdin;

    /**
     * The host a command that changes things (apply, rollback) works on. This computer only with an explicit
     * {@code --local}: run as root without a host option, the command must not edit this machine's /etc.
     *
     * @throws IllegalArgumentException (a usage error) when no host was named, or a listing or snapshot was
     */
    HostTarget changeTarget(CliServices services) throws IOException {
        if (which.listing != null) {
            throw new IllegalArgumentException("a listing cannot be changed; use --local, --ssh or --sysroot DIR");
        }
        if (which.sysroot != null && !Files.isDirectory(which.sysroot)) {
            throw new IllegalArgumentException("--sysroot for changes must be a directory: " + which.sysroot);
        }
        if (which.ssh == null && which.sysroot == null && !which.local) {
            throw new IllegalArgumentException("this command changes a host, so say which one: --local for this"
                    + " computer, --ssh USER@HOST for a host over SSH, or --sysroot DIR for a copy of a host's /");
        }
        return target(services);
    }

    /** The host the options name (this computer by default). */
    HostTarget target(CliServices services) throws IOException {
        if (which.listing != null) {
            byte[] data = which.listing.equals("-") ? services.stdin().readAllBytes()
                    : Files.readAllBytes(Path.of(which.listing));
            return new HostTarget.Listing(which.listing, data);
        }
        if (which.ssh != null) {
            Optional<char[]> password = Optional.empty();
            if (passwordStdin) {
                password = Optional.ofNullable(services.readLine()).map(String::toCharArray);
            }
            Optional<char[]> passphrase = Optional.ofNullable(System.getenv("GPUFORGE_SSH_KEY_PASSPHRASE"))
                    .map(String::toCharArray);
            return new HostTarget.Ssh(new SshLogin(which.ssh, password, Optional.ofNullable(identity), passphrase,
                    Optional.ofNullable(knownHosts), acceptNew));
        }
        if (which.sysroot != null) {
            return Files.isRegularFile(which.sysroot) ? new HostTarget.Snapshot(which.sysroot)
                    : new HostTarget.Sysroot(which.sysroot);
        }
        return new HostTarget.ThisComputer();
    }

    /** What the options name, read (for a listing: what it shows). */
    HostReading read(CliServices services) throws HostException, IOException {
        return services.standalone().hosts().read(target(services), HostSource::refuseUnknownKey);
    }

    /** The CLI never asks about a host key: {@code --accept-new-host-key} accepts one, otherwise it is refused. */
    static boolean refuseUnknownKey(String host, String keyType, String fingerprint) {
        return false;
    }
}
