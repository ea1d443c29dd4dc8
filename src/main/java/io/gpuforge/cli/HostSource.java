package io.gpuforge.cli;

import io.gpuforge.domain.HostFacts;
import io.gpuforge.host.HostKeyPolicy;
import io.gpuforge.host.HostProbe;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.LocalShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.Snapshot;
import io.gpuforge.host.SshShell;
import io.gpuforge.host.SshTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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

    /** A shell to change the host with, and the sysroot it stands for (empty for a real host). */
    record Target(HostShell shell, Optional<String> sysroot, boolean sudo) {
    }

    /**
     * The host a command that changes things (apply, rollback) works on. This computer only with an explicit
     * {@code --local}: run as root without a host option, the command must not edit this machine's /etc.
     *
     * @throws IllegalArgumentException (a usage error) when no host was named
     */
    Target target(CliServices services) throws ProbeException, IOException {
        if (which.listing != null) {
            throw new ProbeException("a listing cannot be changed; use --local, --ssh or --sysroot DIR");
        }
        if (which.ssh != null) {
            SshShell shell = ssh(services);
            return new Target(shell, Optional.empty(), !"root".equals(shell.user()));
        }
        if (which.sysroot != null) {
            if (!Files.isDirectory(which.sysroot)) {
                throw new ProbeException("--sysroot for changes must be a directory: " + which.sysroot);
            }
            return new Target(new LocalShell(), Optional.of(which.sysroot.toAbsolutePath().toString()), false);
        }
        if (!which.local) {
            throw new IllegalArgumentException("this command changes a host, so say which one: --local for this"
                    + " computer, --ssh USER@HOST for a host over SSH, or --sysroot DIR for a copy of a host's /");
        }
        return new Target(new LocalShell(), Optional.empty(), false);
    }

    /** Opens the SSH session named by --ssh with the SSH options. */
    SshShell ssh(CliServices services) throws ProbeException, IOException {
        SshTarget target = SshTarget.parse(which.ssh, System.getProperty("user.name"));
        Optional<char[]> password = Optional.empty();
        if (passwordStdin) {
            password = Optional.ofNullable(services.readLine()).map(String::toCharArray);
        }
        Optional<char[]> passphrase = Optional.ofNullable(System.getenv("GPUFORGE_SSH_KEY_PASSPHRASE"))
                .map(String::toCharArray);
        Path kh = knownHosts != null ? knownHosts : Path.of(System.getProperty("user.home"), ".ssh", "known_hosts");
        return SshShell.connect(target, new SshShell.Credentials(password, Optional.ofNullable(identity), passphrase),
                kh, acceptNew ? HostKeyPolicy.acceptNew() : HostKeyPolicy.refuseUnknown(), Duration.ofSeconds(20));
    }

    LoadedHost load(CliServices services) throws ProbeException, IOException {
        if (which.listing != null) {
            return ListingInput.load(which.listing, services);
        }
        HostFacts facts;
        if (which.ssh != null) {
            try (SshShell shell = ssh(services)) {
                facts = new HostProbe().probe(shell, !"root".equals(shell.user()));
            }
        } else if (which.sysroot != null && Files.isRegularFile(which.sysroot)) {
            Path dir = Snapshot.unpack(which.sysroot);
            try {
                facts = new HostProbe().probeLocal(Optional.of(dir)).withSource("snapshot:" + which.sysroot, List.of());
            } finally {
                Snapshot.deleteTree(dir);
            }
        } else {
            facts = new HostProbe().probeLocal(Optional.ofNullable(which.sysroot));
        }
        return new LoadedHost(facts.source(), facts.iommu(), facts.pci(), Optional.of(facts));
    }
}
