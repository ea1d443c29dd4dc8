package io.gpuforge.cli.common;

import io.gpuforge.bounded.BoundedStreams;
import io.gpuforge.app.host.HostReading;
import io.gpuforge.app.host.HostService;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.host.LoginPrompt;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.host.HostException;
import java.io.Console;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Where host facts come from: {@code --local | --ssh | --sysroot | --listing} (plus the SSH options). */
public final class HostSource {

    public static final class Which {
        @Option(names = "--local", description = "This computer (the default for reading; apply and rollback change"
                + " this computer only when it is given).")
        public boolean local;

        @Option(names = "--ssh", paramLabel = "[USER@]HOST[:PORT]", description = "A host over SSH; HOST may be a Host"
                + " alias of ~/.ssh/config. Logs in like ssh: the SSH agent, the config's or the default keys, a password.")
        public String ssh;

        @Option(names = "--host", paramLabel = "NAME", description = "A saved SSH host, by name (gpuforge connection"
                + " add NAME --ssh USER@HOST, or the window's): its login, its remembered passphrase and the host keys"
                + " the window accepted.")
        public String host;

        @Option(names = "--sysroot", paramLabel = "DIR|FILE.tar.gz",
                description = "A directory that mirrors a host's /, or a snapshot made by gpuforge snapshot.")
        public Path sysroot;

        @Option(names = "--listing", paramLabel = "FILE",
                description = "A pasted IOMMU group listing (optionally followed by lspci -nnk output); - for stdin.")
        public String listing;
    }

    @ArgGroup(exclusive = true)
    public Which which = new Which();

    /** How {@code --ssh} logs in. */
    @Mixin
    SshOptions login = new SshOptions();

    /** Where the passphrase of an encrypted key comes from when nobody can be asked. */
    static final String PASSPHRASE_VARIABLE = SshOptions.PASSPHRASE_VARIABLE;

    /**
     * The host a command that changes things (apply, rollback) works on. This computer only with an explicit
     * {@code --local}: run as root without a host option, the command must not edit this machine's /etc.
     *
     * @throws IllegalArgumentException (a usage error) when no host was named, or a listing or snapshot was
     */
    public HostTarget changeTarget(CliServices services) throws IOException {
        if (which.listing != null) {
            throw new IllegalArgumentException("a listing cannot be changed; use --local, --ssh or --sysroot DIR");
        }
        if (which.sysroot != null && Files.isRegularFile(which.sysroot)) {
            throw new IllegalArgumentException("--sysroot " + which.sysroot + " is a snapshot, which cannot be changed:"
                    + " give a directory for changes");
        }
        if (which.sysroot != null) {
            InputFile.requireDirectory(which.sysroot, "--sysroot");
        }
        if (which.ssh == null && which.host == null && which.sysroot == null && !which.local) {
            throw new IllegalArgumentException("this command changes a host, so say which one: --local for this"
                    + " computer, --ssh USER@HOST or --host NAME for a host over SSH, or --sysroot DIR for a copy of a"
                    + " host's /");
        }
        return target(services);
    }

    /** The most a pasted listing may hold. */
    static final long LISTING_LIMIT = 16 << 20;

    /** The host the options name (this computer by default). */
    public HostTarget target(CliServices services) throws IOException {
        if (which.listing != null) {
            // a listing is a few kilobytes: a file or pipe past 16 MiB is not one (--listing /dev/zero)
            byte[] data = which.listing.equals("-") ? BoundedStreams.readAll(services.stdin(), "standard input",
                    LISTING_LIMIT) : BoundedStreams.readAll(InputFile.require(Path.of(which.listing), "--listing"),
                    LISTING_LIMIT);
            return new HostTarget.Listing(which.listing, data);
        }
        if (which.ssh != null) {
            return new HostTarget.Ssh(login.login(which.ssh, services));
        }
        if (which.host != null) {
            return new HostTarget.Saved(savedHost(services));
        }
        if (which.sysroot != null) {
            return Files.isRegularFile(which.sysroot) ? new HostTarget.Snapshot(which.sysroot)
                    : new HostTarget.Sysroot(InputFile.requireDirectory(which.sysroot, "--sysroot"));
        }
        return new HostTarget.ThisComputer();
    }

    /** Whether a host is named on the spot: {@code --local}, {@code --ssh}, {@code --host} or {@code --sysroot}. */
    public boolean namesAHost() {
        return which.local || which.ssh != null || which.host != null || which.sysroot != null;
    }

    /** The host named on the spot ({@link #namesAHost}), else empty: a node's host is then its link. */
    public Optional<HostTarget> named(CliServices services) throws IOException {
        return namesAHost() ? Optional.of(target(services)) : Optional.empty();
    }

    /** What the options name, read (for a listing: what it shows). */
    public HostReading read(CliServices services) throws HostException, IOException {
        return hosts(services).read(target(services), HostSource::refuseUnknownKey);
    }

    /** The host services for the target: the application's for a saved host, else those without anything saved. */
    public HostService hosts(CliServices services) throws IOException {
        return which.host != null ? services.context().hosts() : services.standalone().hosts();
    }

    /** The passthrough service for the target, as {@link #hosts}. */
    public PassthroughService passthrough(CliServices services) throws IOException {
        return which.host != null ? services.context().passthrough() : services.standalone().passthrough();
    }

    private ConnectionInfo savedHost(CliServices services) throws IOException {
        ConnectionInfo c;
        try {
            c = CliServices.savedConnection(services.context(), which.host);
        } catch (IOException | IllegalArgumentException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("cannot read the saved connections: " + e.getMessage(), e);
        }
        if (c.kind() != ConnectionInfo.Kind.SSH) {
            throw new IllegalArgumentException(which.host + " is a " + c.kind().db() + " connection, not an SSH host"
                    + " (--connection names a hypervisor)");
        }
        return c;
    }

    /** The CLI never asks about a host key: {@code --accept-new-host-key} accepts one, otherwise it is refused. */
    public static boolean refuseUnknownKey(String host, String keyType, String fingerprint) {
        return false;
    }

    /**
     * Asks on the terminal, without echo, as {@code ssh} does: "Enter passphrase for key …", "user@host's password".
     * Without a terminal (a pipe, a script, a test) nothing is asked and the error says which option or variable gives it.
     * The terminal is the console device, not standard output: prompts never mix with {@code --json} output.
     */
    static final class TerminalLoginPrompt implements LoginPrompt {

        private final Console console;
        private final boolean passwordFromStdin;

        /** @param console null without a terminal */
        TerminalLoginPrompt(Console console, boolean passwordFromStdin) {
            this.console = console;
            this.passwordFromStdin = passwordFromStdin;
        }

        @Override
        public Optional<char[]> askPassphrase(Path keyFile, boolean again) {
            if (console == null) {
                return Optional.empty();
            }
            if (again) {
                console.printf("%s%n", "Bad passphrase, try again.");
            }
            return Optional.ofNullable(console.readPassword("Enter passphrase for key '%s': ", keyFile));
        }

        @Override
        public Optional<char[]> askPassword(String userAtHost, boolean again) {
            if (console == null || passwordFromStdin) {
                return Optional.empty();
            }
            if (again) {
                console.printf("%s%n", "Permission denied, please try again.");
            }
            return Optional.ofNullable(console.readPassword("%s's password: ", userAtHost));
        }

        @Override
        public boolean canAsk() {
            return console != null;
        }

        @Override
        public String passphraseHint() {
            return "set " + HostSource.PASSPHRASE_VARIABLE + " (or run gpuforge on a terminal to be asked)";
        }

        @Override
        public String passwordHint() {
            return "give the password with --password-stdin (or run gpuforge on a terminal to be asked), or log in with"
                    + " a key (--identity FILE, the SSH agent)";
        }
    }
}
