package io.gpuforge.cli;

import io.gpuforge.app.AdhocHypervisor;
import io.gpuforge.app.ConnectionSession;
import io.gpuforge.domain.ConnectionInfo;
import java.io.IOException;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How every command reaches Proxmox VE: {@code --pve URL}, an API token from {@code GPUFORGE_PVE_TOKEN}
 * ({@code USER@REALM!ID=SECRET}) or {@code --user USER@REALM --password-stdin}, and {@code --fingerprint}
 * to pin the certificate non-interactively.
 */
final class PveOptions {

    @Option(names = "--pve", paramLabel = "URL", description = "A Proxmox VE cluster (https://host:8006).")
    String url;

    @Option(names = "--fingerprint", paramLabel = "SHA256", description = "Pin the PVE certificate (AA:BB:… as PVE shows it).")
    String fingerprint;

    @Option(names = "--user", paramLabel = "USER@REALM", description = "Log in with a password instead of an API token.")
    String user;

    @Option(names = "--pve-password-stdin", description = "With --user: read the password from the first line of stdin.")
    boolean passwordStdin;

    boolean present() {
        return url != null;
    }

    /** The cluster named by --pve with its credentials (token from GPUFORGE_PVE_TOKEN, or --user + password on stdin). */
    AdhocHypervisor hypervisor(CliServices services) throws IOException {
        if (user != null) {
            if (!passwordStdin) {
                throw new IllegalArgumentException("--user needs --pve-password-stdin");
            }
            String line = services.readLine();
            return new AdhocHypervisor(ConnectionInfo.Kind.PROXMOX, url, user, Optional.of(line == null ? new char[0]
                    : line.toCharArray()), true, Optional.ofNullable(fingerprint));
        }
        String token = System.getenv("GPUFORGE_PVE_TOKEN");
        int eq = token == null ? -1 : token.indexOf('=');
        if (eq < 0) {
            throw new IllegalArgumentException("set GPUFORGE_PVE_TOKEN=USER@REALM!ID=SECRET (an API token),"
                    + " or use --user with --pve-password-stdin");
        }
        return new AdhocHypervisor(ConnectionInfo.Kind.PROXMOX, url, token.substring(0, eq),
                Optional.of(token.substring(eq + 1).toCharArray()), false, Optional.ofNullable(fingerprint));
    }

    /** A session with the cluster, closed by the caller. */
    ConnectionSession session(CliServices services) throws IOException {
        return services.standalone().sessions().adhoc(hypervisor(services));
    }
}
