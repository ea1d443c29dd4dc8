package io.gpuforge.cli.common;

import io.gpuforge.app.session.AdhocHypervisor;
import io.gpuforge.domain.connections.ConnectionInfo;
import java.io.IOException;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How the command logs in to a Proxmox VE cluster it names by URL, the same in every command (and in
 * {@code connection add --pve}): its certificate pinned by {@code --fingerprint SHA256}, and an API token from
 * {@code GPUFORGE_PVE_TOKEN} or {@code --token-stdin}, or a password login with {@code --pve-user USER@REALM
 * --pve-password-stdin}. Secrets come from stdin or the environment, never from the command line.
 */
public final class PveLogin {

    public static final String TOKEN_VARIABLE = "GPUFORGE_PVE_TOKEN";

    @Option(names = "--fingerprint", paramLabel = "SHA256", description = "With --pve: pin the cluster's certificate"
            + " (AA:BB:… as Proxmox VE shows it).")
    String fingerprint;

    @Option(names = "--token-stdin", description = "With --pve: read the API token (USER@REALM!ID=SECRET) from the first"
            + " line of stdin.")
    boolean tokenStdin;

    @Option(names = "--pve-user", paramLabel = "USER@REALM", description = "With --pve: log in as this user with a"
            + " password (--pve-password-stdin) instead of an API token.")
    String user;

    @Option(names = "--pve-password-stdin", description = "With --pve-user: read the password from the first line of"
            + " stdin.")
    boolean passwordStdin;

    /** Whether any of these options was given. */
    public boolean given() {
        return fingerprint != null || tokenStdin || user != null || passwordStdin;
    }

    /** Whether credentials were given (options, or the token in the environment). */
    public boolean credentials(CliServices services) {
        return user != null || tokenStdin || services.env(TOKEN_VARIABLE).isPresent();
    }

    /** The login to {@code url} these options give; a usage error (IllegalArgumentException) naming what is wrong. */
    public AdhocHypervisor login(CliServices services, String url) throws IOException {
        Optional<String> pin = Optional.ofNullable(fingerprint);
        if (user != null) {
            if (!passwordStdin) {
                throw new IllegalArgumentException("--pve-user needs --pve-password-stdin (the password on stdin)");
            }
            String line = services.readLine();
            return new AdhocHypervisor(ConnectionInfo.Kind.PROXMOX, url, user, Optional.of(line == null ? new char[0]
                    : line.toCharArray()), true, pin);
        }
        String token = tokenStdin ? services.readLine() : services.env(TOKEN_VARIABLE).orElse(null);
        int eq = token == null ? -1 : token.indexOf('=');
        if (eq < 0 || !token.substring(0, eq).contains("!")) {
            throw new IllegalArgumentException((tokenStdin ? "--token-stdin" : TOKEN_VARIABLE) + " needs an API token"
                    + " as USER@REALM!ID=SECRET");
        }
        return new AdhocHypervisor(ConnectionInfo.Kind.PROXMOX, url, token.substring(0, eq).strip(),
                Optional.of(token.substring(eq + 1).strip().toCharArray()), false, pin);
    }

    /** Refuses a URL that is not a cluster's https address. */
    public static void checkUrl(String url) {
        if (!url.matches("(?i)https://[^/\\s]+(/.*)?")) {
            throw new IllegalArgumentException("--pve needs the cluster's https URL, such as https://pve1:8006, not '"
                    + url + "'");
        }
    }
}
