package io.gpuforge.app.host;

import io.gpuforge.domain.host.HostException;
import io.gpuforge.host.FileScripts;
import io.gpuforge.host.HostShell;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Small POSIX sh scripts that GPUForge runs on an open host for what its engine does not read itself (the boot id,
 * the backups' manifests). Like every script GPUForge sends, each takes the root of the host's files as its only
 * argument ({@code R}, empty on a real host, the directory of a sysroot), never from the host's environment.
 */
public final class HostScripts {

    static final Duration LIMIT = Duration.ofSeconds(60);
    /** {@code R}, {@code set -e}, and {@code target}, which keeps a path under a sysroot ({@link FileScripts}). */
    static final String PRELUDE = FileScripts.PRELUDE;

    private HostScripts() {
    }

    public static String q(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** Runs {@code script} (after the prelude) and returns what it printed; a non-zero exit is an error naming it. */
    public static String run(HostAccess.Opened h, String what, String script) throws HostException {
        String command = (h.sudo() ? "sudo -n sh -s" : "sh -s") + h.sysroot().map(r -> " -- " + q(r)).orElse("");
        HostShell.Result r = h.shell().run(command, (PRELUDE + script + "\n").getBytes(StandardCharsets.UTF_8), LIMIT);
        if (r.exitCode() != 0) {
            throw new HostException(what + " failed on " + h.describe() + " (exit " + r.exitCode() + "): "
                    + r.stderr().strip());
        }
        return new String(r.stdout(), StandardCharsets.UTF_8);
    }

    /** The host's boot id: a new one after every boot. */
    public static String bootId(HostAccess.Opened h) throws HostException {
        String id = run(h, "Reading the boot id", "cat \"$R/proc/sys/kernel/random/boot_id\"").strip();
        if (!id.matches("[0-9a-fA-F-]{16,64}")) {
            throw new HostException(h.describe() + " answered '" + id + "' for its boot id (/proc/sys/kernel/random/boot_id)");
        }
        return id;
    }
}
