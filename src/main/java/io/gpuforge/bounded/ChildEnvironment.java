package io.gpuforge.bounded;

import java.util.List;
import java.util.Map;

/**
 * What a process GPUForge starts (nvidia-smi, a shell, notify-send, a browser by xdg-open, a console viewer) must not
 * inherit: the secrets this process was handed in its environment. The vault's passphrase and a Proxmox VE API token
 * come to scripts by variable, and a systemd service's credentials by a directory; none of them is the child's
 * business, and a child's own children (a browser's helpers) would carry them on.
 */
public final class ChildEnvironment {

    /** The variables taken out of every child's environment. */
    public static final List<String> SECRETS = List.of("GPUFORGE_VAULT_PASSPHRASE", "GPUFORGE_PVE_TOKEN",
            "CREDENTIALS_DIRECTORY");

    private ChildEnvironment() {
    }

    /** The builder, its environment without {@link #SECRETS}. */
    public static ProcessBuilder scrubbed(ProcessBuilder pb) {
        scrub(pb.environment());
        return pb;
    }

    /** Takes {@link #SECRETS} out of an environment about to be given to a child. */
    public static void scrub(Map<String, String> environment) {
        SECRETS.forEach(environment::remove);
    }
}
