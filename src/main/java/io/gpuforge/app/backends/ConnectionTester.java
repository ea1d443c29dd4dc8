package io.gpuforge.app.backends;

import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.host.KeyFiles;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionOptions;
import io.gpuforge.host.ssh.KeyFilePermissions;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.ssh.SshShell;
import io.gpuforge.host.ssh.SshTarget;
import io.gpuforge.hypervisor.Hypervisor;
import io.gpuforge.hypervisor.proxmox.ProxmoxHypervisor;
import io.gpuforge.hypervisor.proxmox.PveApi;
import io.gpuforge.hypervisor.proxmox.PveApiException;
import io.gpuforge.hypervisor.proxmox.PveClient;
import io.gpuforge.hypervisor.proxmox.PveCredentials;
import io.gpuforge.hypervisor.proxmox.PveErrors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * "Test connection" for every kind, before (or without) saving: it connects as the form says and reports what it
 * found (versions, node count, for Proxmox VE the privileges the token or user lacks for what GPUForge does), or what
 * was wrong and on which field of the form. Never throws for a failed test: the failure is the report. Blocking:
 * call from a background task. Every {@code char[]} handed in is wiped before the method returns.
 */
public final class ConnectionTester {

    /** The field of the connection form a failure belongs to. */
    public enum Field { URL, TOKEN_ID, TOKEN_SECRET, USER, PASSWORD, ONE_TIME_CODE, URI, TARGET, IDENTITY_FILE, PASSPHRASE }

    /**
     * What a test found. {@code ok}: it connected and read the inventory. {@code missing}: privileges a Proxmox VE
     * login lacks (the connection works, some features will be refused). {@code untrustedFingerprint}: the server's
     * certificate, not trusted by this system, to show and accept. {@code field}: where the failure belongs.
     */
    public record Report(boolean ok, Optional<String> versions, OptionalInt nodes, OptionalInt vms,
                         List<PrivilegeCheck.Missing> missing, Optional<String> untrustedFingerprint,
                         Optional<Field> field, String message) {
        public Report {
            Objects.requireNonNull(versions);
            Objects.requireNonNull(nodes);
            Objects.requireNonNull(vms);
            missing = List.copyOf(missing);
            Objects.requireNonNull(untrustedFingerprint);
            Objects.requireNonNull(field);
            Objects.requireNonNull(message);
        }

        static Report failed(Field f, String message) {
            return new Report(false, Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), List.of(),
                    Optional.empty(), Optional.ofNullable(f), message);
        }

        static Report found(ClusterInventory inv, List<PrivilegeCheck.Missing> missing) {
            return new Report(true, Optional.of(inv.backendVersion()), OptionalInt.of(inv.nodes().size()),
                    OptionalInt.of((int) inv.vms().stream().filter(v -> !v.template()).count()), missing,
                    Optional.empty(), Optional.empty(), "");
        }
    }

    /**
     * A Proxmox VE login as typed: the URL, a token id ({@code USER@REALM!TOKENID}) or user ({@code USER@REALM})
     * with its secret or password, the fingerprint accepted so far, and the one-time code when the account asked.
     */
    public record ProxmoxLogin(String url, String login, char[] secret, Optional<String> pin, Optional<String> oneTimeCode) {
        @Override
        public String toString() {
            return "ProxmoxLogin[" + url + ", " + login + ", secret=(hidden), pin=" + pin + "]";
        }
    }

    private static final Duration TIMEOUT = Duration.ofSeconds(15);
    private final Backends backends;
    private final LibvirtBackends libvirt;
    private final Supplier<Path> knownHosts;

    ConnectionTester(Backends backends, LibvirtBackends libvirt, Path knownHosts) {
        this(backends, libvirt, () -> knownHosts);
    }

    /** @param knownHosts where host keys are read and new ones written, as the settings say now */
    public ConnectionTester(Backends backends, LibvirtBackends libvirt, Supplier<Path> knownHosts) {
        this.backends = backends;
        this.libvirt = libvirt;
        this.knownHosts = knownHosts;
    }

    /** Logs in to a Proxmox VE cluster, reads its inventory and the login's privileges. */
    public Report proxmox(ProxmoxLogin l) {
        boolean token = l.login().strip().contains("!");
        char[] password = token ? new char[0] : l.secret().clone();
        try {
            PveClient client;
            try {
                PveCredentials credentials = token ? new PveCredentials.Token(l.login().strip(), new String(l.secret()))
                        : new PveCredentials.Password(l.login().strip(), password,
                        l.oneTimeCode().map(code -> () -> code.strip()));
                client = new PveClient(l.url().strip(), credentials, l.pin(), backends.contract(), TIMEOUT);
            } catch (IllegalArgumentException e) {
                return Report.failed(token ? Field.TOKEN_ID : Field.USER, e.getMessage());
            } catch (PveApiException e) {
                return Report.failed(Field.URL, e.getMessage());
            }
            try (Hypervisor h = new ProxmoxHypervisor(client, l.url().strip())) {
                ClusterInventory inv = h.inventory();
                PveApi.Permissions held = new PveApi(client).permissions(Optional.empty(), Optional.empty());
                return Report.found(inv, PrivilegeCheck.missing(held));
            } catch (BackendException e) {
                return proxmoxFailure(e, client, l, token);
            } catch (PveApiException e) {
                return proxmoxFailure(PveErrors.map(e), client, l, token);
            }
        } finally {
            Arrays.fill(l.secret(), '\0');
            Arrays.fill(password, '\0');
        }
    }

    private static Report proxmoxFailure(BackendException e, PveClient client, ProxmoxLogin l, boolean token) {
        switch (e.kind()) {
            case TLS:
                if (l.pin().isEmpty() && client.serverFingerprint().isPresent()) {
                    return new Report(false, Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), List.of(),
                            client.serverFingerprint(), Optional.of(Field.URL), e.getMessage());
                }
                return Report.failed(Field.URL, e.getMessage());
            case AUTH:
                if (e.getMessage() != null && e.getMessage().contains("second factor")) {
                    return Report.failed(Field.ONE_TIME_CODE, e.getMessage());
                }
                if (token) {
                    return Report.failed(Field.TOKEN_SECRET, "Proxmox VE refused the API token (" + e.getMessage()
                            + "): check the token id and its secret (Datacenter → Permissions → API Tokens)");
                }
                return Report.failed(Field.PASSWORD, "Proxmox VE refused the login (" + e.getMessage() + "): check the"
                        + " user, its realm and the password" + (l.oneTimeCode().isPresent() ? ", and the one-time code"
                        : ""));
            default:
                return Report.failed(Field.URL, e.getMessage());
        }
    }

    /** The Demo lab: the simulated cluster inside GPUForge, read like a real one. */
    public Report demo() {
        try (Hypervisor h = backends.open(demoInfo())) {
            return Report.found(h.inventory(), List.of());
        } catch (BackendException e) {
            return Report.failed(null, e.getMessage());
        }
    }

    private static ConnectionInfo demoInfo() {
        return new ConnectionInfo(0, "Demo lab", ConnectionInfo.Kind.DEMO, "simulated", "", Optional.empty());
    }

    /** Opens a libvirt URI and reads what it holds. */
    public Report libvirt(String uri) {
        try (Hypervisor h = libvirt.open(uri.strip())) {
            return Report.found(h.inventory(), List.of());
        } catch (BackendException | RuntimeException e) {
            return Report.failed(Field.URI, e.getMessage());
        }
    }

    /**
     * Logs in to an SSH host as the form says (password, a key file with its passphrase, or the default keys) and
     * runs {@code uname -sr}; with {@code sudo}, also checks that {@code sudo -n true} works. An encrypted key file
     * without a passphrase is reported on the passphrase field before anything is sent.
     */
    public Report ssh(String userAtHost, Optional<char[]> password, ConnectionOptions options,
                      Optional<char[]> passphrase, HostKeyPrompt prompt) {
        try {
            SshTarget target;
            try {
                target = SshTarget.parse(userAtHost.strip(), "root");
            } catch (IllegalArgumentException e) {
                return Report.failed(Field.TARGET, e.getMessage());
            }
            Optional<Path> identity = options.identityFile().map(Path::of);
            if (identity.isPresent()) {
                Optional<String> unprotected = KeyFilePermissions.problem(identity.get());
                if (unprotected.isPresent()) {
                    String why = unprotected.get();
                    return Report.failed(Field.IDENTITY_FILE, Character.toUpperCase(why.charAt(0)) + why.substring(1));
                }
                try {
                    if (KeyFiles.encrypted(identity.get()) && passphrase.filter(p -> p.length > 0).isEmpty()) {
                        return Report.failed(Field.PASSPHRASE, "The key file " + identity.get() + " is encrypted:"
                                + " enter its passphrase");
                    }
                } catch (IOException e) {
                    return Report.failed(Field.IDENTITY_FILE, e.getMessage());
                }
            }
            SshShell.Credentials credentials = new SshShell.Credentials(password.filter(p -> p.length > 0),
                    identity, passphrase.filter(p -> p.length > 0));
            try (SshShell shell = SshShell.connect(target, credentials, knownHosts.get(), prompt::trust, TIMEOUT)) {
                String out = new String(shell.run("uname -sr 2>/dev/null || true", new byte[0], TIMEOUT).stdout(),
                        StandardCharsets.UTF_8).strip();
                String uname = out.isEmpty() ? "SSH " + target : out + " (" + target + ")";
                if (options.sudo() && !"root".equals(target.user())
                        && shell.run("sudo -n true", new byte[0], TIMEOUT).exitCode() != 0) {
                    return new Report(false, Optional.of(uname), OptionalInt.of(1), OptionalInt.empty(), List.of(),
                            Optional.empty(), Optional.of(Field.TARGET), target.user() + " cannot run sudo without a"
                            + " password on " + target.host() + ": allow it in /etc/sudoers.d (NOPASSWD) or log in"
                            + " as root");
                }
                return new Report(true, Optional.of(uname), OptionalInt.of(1), OptionalInt.empty(), List.of(),
                        Optional.empty(), Optional.empty(), "");
            } catch (ProbeException e) {
                String m = e.getMessage() == null ? "SSH failed" : e.getMessage();
                Field f = password.isPresent() && m.contains("authentication refused") ? Field.PASSWORD
                        : identity.isPresent() && (m.contains("decrypt") || m.contains("passphrase")) ? Field.PASSPHRASE
                        : Field.TARGET;
                return Report.failed(f, m);
            }
        } finally {
            password.ifPresent(p -> Arrays.fill(p, '\0'));
            passphrase.ifPresent(p -> Arrays.fill(p, '\0'));
        }
    }
}
