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

    private final HostShell shell;
    private final String root;
    private final boolean sudo;
    private final Duration stepLimit;

    RemoteFiles(HostShell shell, String root, boolean sudo, Duration stepLimit) {
        this.shell = shell;
        this.root = root;
        this.sudo = sudo;
        this.stepLimit = stepLimit;
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
        HostShell.Result r = shell.run(command, full.getBytes(StandardCharsets.UTF_8), stepLimit);
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

    /**
     * Runs a refresh command (update-grub…) on the host, its output handed to {@code lines} while it runs. Never on
     * a sysroot (those commands are listed for the user). A non-zero exit is in the result; a broken connection or
     * the time limit is an exception ({@link CommandTimeoutException}).
     */
    HostShell.Result command(String command, Duration limit, HostShell.LineListener lines) throws ProbeException {
        if (sysroot()) {
            throw new IllegalStateException("commands are not run on a sysroot: " + command);
        }
        try {
            return shell.run(sudo ? "sudo -n sh -s" : "sh -s", (command + "\n").getBytes(StandardCharsets.UTF_8), limit,
                    lines);
        } catch (CommandTimeoutException e) {
            throw new CommandTimeoutException("'" + command + "' did not finish within "
                    + CommandTimeoutException.human(limit) + " on " + shell.describe(), e.mayStillRun());
        }
    }

    /** ": " and the last lines a failed command wrote, for messages. */
    static String tail(HostShell.Result r) {
        String text = (new String(r.stdout(), StandardCharsets.UTF_8) + "\n" + r.stderr()).strip();
        if (text.isEmpty()) {
            return "";
        }
        String[] lines = text.split("\n");
        StringBuilder b = new StringBuilder();
        for (int i = Math.max(0, lines.length - 3); i < lines.length; i++) {
            b.append(b.length() == 0 ? "" : " / ").append(lines[i].strip());
        }
        return ": " + ListingParser.shorten(b.toString());
    }

    String describe() {
        return shell.describe() + (sysroot() ? " (sysroot " + root + ")" : "");
    }
}
