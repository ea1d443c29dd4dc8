package io.gpuforge.host;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

/**
 * Files on a host, read and written through its {@link HostShell} with small POSIX sh scripts (one round
 * trip each). Paths are absolute on the host; with a root prefix they land under a sysroot. Writes are
 * atomic (temp file in the same directory, then rename) and keep the file's mode and owner.
 */
final class RemoteFiles {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private final HostShell shell;
    private final String root;
    private final boolean sudo;

    RemoteFiles(HostShell shell, String root, boolean sudo) {
        this.shell = shell;
        this.root = root;
        this.sudo = sudo;
    }

    boolean sysroot() {
        return !root.isEmpty();
    }

    static String q(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /**
     * Runs a script with {@code R} set to the root prefix; fails on a non-zero exit. The root is the script's
     * argument ({@code sh -s -- ROOT}), never a variable from the host's environment.
     */
    String run(String script) throws ProbeException {
        String full = "R=\"${1:-}\"\nset -e\n" + script + "\n";
        String command = (sudo ? "sudo -n sh -s" : "sh -s") + (root.isEmpty() ? "" : " -- " + q(root));
        HostShell.Result r = shell.run(command, full.getBytes(StandardCharsets.UTF_8), TIMEOUT);
        if (r.exitCode() != 0) {
            throw new ProbeException("A step failed on " + shell.describe() + " (exit " + r.exitCode() + "): "
                    + r.stderr().strip());
        }
        return new String(r.stdout(), StandardCharsets.UTF_8);
    }

    Optional<byte[]> read(String path) throws ProbeException {
        String out = run("f=\"$R\"" + q(path) + "\nif [ -e \"$f\" ]; then echo EXISTS; base64 < \"$f\"; else echo ABSENT; fi");
        if (out.startsWith("ABSENT")) {
            return Optional.empty();
        }
        if (!out.startsWith("EXISTS")) {
            throw new ProbeException("Unexpected answer reading " + path + ": " + ListingParser.shorten(out));
        }
        return Optional.of(Base64.getMimeDecoder().decode(out.substring("EXISTS".length()).strip()));
    }

    void write(String path, byte[] content) throws ProbeException {
        String b64 = Base64.getEncoder().encodeToString(content);
        run("f=\"$R\"" + q(path) + "\nmkdir -p \"$(dirname \"$f\")\"\nt=\"$f.gpuforge-tmp\"\n"
                + "printf '%s' " + q(b64) + " | base64 -d > \"$t\"\n"
                + "if [ -e \"$f\" ]; then chmod \"$(stat -c %a \"$f\")\" \"$t\"; chown \"$(stat -c %u:%g \"$f\")\" \"$t\" 2>/dev/null"
                + " || true; else chmod 644 \"$t\"; fi\nmv -f \"$t\" \"$f\"");
    }

    void delete(String path) throws ProbeException {
        run("rm -f \"$R\"" + q(path));
    }

    /** Copies with mode, owner and times ({@code cp -p}); the target appears atomically. */
    void copy(String from, String to) throws ProbeException {
        run("s=\"$R\"" + q(from) + "\nf=\"$R\"" + q(to) + "\nmkdir -p \"$(dirname \"$f\")\"\n"
                + "cp -p \"$s\" \"$f.gpuforge-tmp\"\nmv -f \"$f.gpuforge-tmp\" \"$f\"");
    }

    /** Runs a host command (update-grub…) unless this is a sysroot; returns whether it ran. */
    boolean command(String command) throws ProbeException {
        if (sysroot()) {
            return false;
        }
        String out = run("if [ -n \"$R\" ]; then echo GPUFORGE-SYSROOT-SKIP; else " + command + "; fi");
        return !out.startsWith("GPUFORGE-SYSROOT-SKIP");
    }

    String describe() {
        return shell.describe() + (sysroot() ? " (sysroot " + root + ")" : "");
    }
}
