package io.gpuforge.cli;

import io.gpuforge.hypervisor.proxmox.PveApiException;
import io.gpuforge.hypervisor.proxmox.PveClient;
import io.gpuforge.hypervisor.proxmox.PveContract;
import io.gpuforge.hypervisor.proxmox.PveCredentials;
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

    PveClient client(CliServices services) throws PveApiException, IOException {
        PveCredentials credentials;
        if (user != null) {
            if (!passwordStdin) {
                throw new IllegalArgumentException("--user needs --pve-password-stdin");
            }
            String line = services.readLine();
            credentials = new PveCredentials.Password(user, line == null ? new char[0] : line.toCharArray());
        } else {
            String token = System.getenv("GPUFORGE_PVE_TOKEN");
            if (token == null) {
                throw new IllegalArgumentException("set GPUFORGE_PVE_TOKEN=USER@REALM!ID=SECRET (an API token),"
                        + " or use --user with --pve-password-stdin");
            }
            credentials = PveCredentials.Token.parse(token);
        }
        return new PveClient(url, credentials, Optional.ofNullable(fingerprint), PveContract.load());
    }
}
