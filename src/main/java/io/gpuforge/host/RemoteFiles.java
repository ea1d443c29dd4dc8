package io.gpuforge.host;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntConsumer;

/**
 * Files on a host, read and written through its {@link HostShell} with small POSIX sh scripts (one round
 * trip each). Paths are absolute on the host; with a root prefix they land under a sysroot, and never outside
 * it. A symbolic link is followed to the file it stands for, which is what is read and written; the link stays.
 * Writes are atomic (temp file in the same directory, flushed, then renamed) and keep the file's mode and owner.
 */
public final class RemoteFiles {

    /** What staged files are called: the new content beside its target, in the same directory. */
    public static final String STAGED = ".gpuforge-new";

    private final HostShell shell;
    private final String root;
    private final boolean sudo;
    private final Duration stepLimit;

    public RemoteFiles(HostShell shell, String root, boolean sudo, Duration stepLimit) {
        this.shell = shell;
        this.root = root;
        this.sudo = sudo;
        this.stepLimit = stepLimit;
    }

    public boolean sysroot() {
        return !root.isEmpty();
    }

    public static String q(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /**
     * What every file script starts with. {@code R} is the root prefix (the script's argument, never a variable
     * from the host's environment). {@code target} follows a path's symbolic links to the file it stands for (an
     * absolute link means that path under the root, as on the host) and, under a root, refuses a path that
     * resolves outside it: nothing is read, written or deleted outside a sysroot.
     */
    public static final String PRELUDE = String.join("\n",
            "R=\"${1:-}\"",
            "set -e",
            "fail() { printf '%s\\n' \"$*\" >&2; exit 3; }",
            "RR=",
            "if [ -n \"$R\" ]; then RR=\"$(cd -P -- \"$R\" && pwd -P)\" || fail \"the root $R is not a directory\"; RR=\"${RR%/}\"; fi",
            "inside() {",
            "  [ -n \"$R\" ] || return 0",
            "  p=\"$1\"",
            "  while [ ! -e \"$p\" ] && [ ! -L \"$p\" ]; do p=\"${p%/*}\"; [ -n \"$p\" ] || p=/; done",
            "  if [ -d \"$p\" ] && [ ! -L \"$p\" ]; then d=\"$(cd -P -- \"$p\" && pwd -P)\"; else d=\"$(cd -P -- \"${p%/*}/\" && pwd -P)\"; fi",
            "  case \"$d/\" in \"$RR\"/*) ;; *) fail \"refusing ${1#\"$R\"}: it resolves to $d, outside the root $R\" ;; esac",
            "}",
            "target() {",
            "  t=\"$1\"; n=0",
            "  while [ -L \"$t\" ]; do",
            "    n=$((n + 1)); [ \"$n\" -le 40 ] || fail \"${1#\"$R\"}: too many levels of symbolic links\"",
            "    l=\"$(readlink -- \"$t\")\"",
            "    case \"$l\" in /*) t=\"$R$l\" ;; *) t=\"${t%/*}/$l\" ;; esac",
            "  done",
            "  inside \"$t\"",
            "  printf '%s\\n' \"$t\"",
            "}",
            "tmp=",
            "trap '[ -z \"$tmp\" ] || rm -f -- \"$tmp\"' EXIT",
            "flush() { { sync -- \"$1\" 2>/dev/null || sync; } || fail \"$2 could not be flushed to disk (sync failed); it was not changed\"; }",
            "");

    /** The shell a file script runs in: {@code sh -s}, through sudo where asked, the root as its argument. */
    private String command() {
        return (sudo ? "sudo -n sh -s" : "sh -s") + (root.isEmpty() ? "" : " -- " + q(root));
    }

    /** Runs a file script (after {@link #PRELUDE}); fails on a non-zero exit. */
    public String run(String script) throws ProbeException {
        return succeeded(unchecked(script));
    }

    private HostShell.Result unchecked(String script) throws ProbeException {
        String full = PRELUDE + script + "\n";
        return shell.run(command(), full.getBytes(StandardCharsets.UTF_8), stepLimit);
    }

    /** The script's output; a non-zero exit fails, with what it wrote to stderr. */
    private String succeeded(HostShell.Result r) throws ProbeException {
        if (r.exitCode() != 0) {
            throw new ProbeException("A step failed on " + shell.describe() + " (exit " + r.exitCode() + "): "
                    + r.stderr().strip());
        }
        return new String(r.stdout(), StandardCharsets.UTF_8);
    }

    public Optional<byte[]> read(String path) throws ProbeException {
        return readAll(List.of(path)).get(path);
    }

    /**
     * Several files in one round trip (each through its symbolic links); an absent file is empty. A slow host or a far
     * one pays a round trip per script, so an apply reads what it compares all at once.
     */
    public Map<String, Optional<byte[]>> readAll(List<String> paths) throws ProbeException {
        StringBuilder b = new StringBuilder();
        for (String p : paths) {
            b.append("f=\"$(target \"$R\"").append(q(p)).append(")\"\n")
                    .append("if [ -e \"$f\" ]; then echo '" + MARK + "EXISTS'; base64 < \"$f\"; else echo '" + MARK
                            + "ABSENT'; fi\n");
        }
        String out = run(b.toString());
        Map<String, Optional<byte[]>> files = new LinkedHashMap<>();
        int i = -1;
        StringBuilder data = null;
        for (String line : out.split("\n", -1)) {
            if (line.startsWith(MARK)) {
                if (data != null) {
                    files.put(paths.get(i), Optional.of(Base64.getMimeDecoder().decode(data.toString())));
                }
                i++;
                if (i >= paths.size()) {
                    throw new ProbeException("Unexpected answer reading " + paths + ": " + ProbeStream.shorten(out));
                }
                data = null;
                if (line.equals(MARK + "EXISTS")) {
                    data = new StringBuilder();
                } else if (line.equals(MARK + "ABSENT")) {
                    files.put(paths.get(i), Optional.empty());
                } else {
                    throw new ProbeException("Unexpected answer reading " + paths.get(i) + ": " + ProbeStream.shorten(line));
                }
            } else if (data != null) {
                data.append(line.strip());
            } else if (!line.isBlank()) {
                throw new ProbeException("Unexpected answer reading " + paths + ": " + ProbeStream.shorten(line));
            }
        }
        if (data != null) {
            files.put(paths.get(i), Optional.of(Base64.getMimeDecoder().decode(data.toString())));
        }
        if (files.size() != paths.size()) {
            throw new ProbeException("Unexpected answer reading " + paths + ": " + ProbeStream.shorten(out));
        }
        return files;
    }

    /** What starts a line of a batch's answer; base64 never does. */
    private static final String MARK = "@@gpuforge ";

    /**
     * Replaces the file {@code path} stands for (through its symbolic links: the link stays) atomically: a temp
     * file next to it with the old file's mode and owner, flushed to disk, then renamed over it. A mode, owner or
     * flush that fails replaces nothing.
     */
    public void write(String path, byte[] content) throws ProbeException {
        run(writeScript(path, content));
    }

    /**
     * {@link #write} of several files in one round trip, in order, each atomic: a cut or a failure part way leaves
     * the files before it written and the others untouched (what one round trip per file in this order left).
     */
    public void writeAll(Map<String, byte[]> contents) throws ProbeException {
        StringBuilder b = new StringBuilder();
        contents.forEach((path, content) -> b.append(writeScript(path, content)).append('\n'));
        run(b.toString());
    }

    private static String writeScript(String path, byte[] content) {
        return replacing(path, content, "changed", "");
    }

    /**
     * The script that writes {@code content} to a temporary file beside the file {@code path} stands for, with its
     * mode and owner, flushed, then renamed to that file plus {@code suffix}; a failure says the file was not
     * {@code verb}.
     */
    private static String replacing(String path, byte[] content, String verb, String suffix) {
        String b64 = Base64.getEncoder().encodeToString(content);
        String name = q(path);
        return "f=\"$(target \"$R\"" + name + ")\"\nmkdir -p -- \"${f%/*}\"\ntmp=\"$f.gpuforge-tmp\"\n"
                + "printf '%s' " + q(b64) + " | base64 -d > \"$tmp\"\n"
                + "if [ -e \"$f\" ]; then\n"
                + "  m=\"$(stat -L -c %a -- \"$f\")\"; o=\"$(stat -L -c %u:%g -- \"$f\")\"\n"
                + "  chmod \"$m\" \"$tmp\" || fail " + name + "\" was not " + verb + ": its mode $m could not be kept\"\n"
                + "  chown \"$o\" \"$tmp\" || fail " + name + "\" was not " + verb + ": its owner $o could not be"
                + " kept\"\n"
                + "else chmod 644 \"$tmp\"; fi\n"
                + "flush \"$tmp\" " + name + "\nmv -f -- \"$tmp\" \"$f" + suffix + "\"\ntmp=";
    }

    /**
     * Writes {@code content} beside the file {@code path} stands for (through its symbolic links), as {@code
     * <file>.gpuforge-new} with the target's mode and owner, flushed to disk; the target itself is not touched. A
     * detached commit ({@link CommitScript}) renames it over the target.
     */
    void stage(String path, byte[] content) throws ProbeException {
        run(staging(path, content));
    }

    /** The script of {@link #stage}, for a {@link #batch}. */
    public static String staging(String path, byte[] content) {
        return replacing(path, content, "staged", STAGED);
    }

    /**
     * Steps of one kind (backups, staged copies) in one round trip, in order; {@code done} hears, after the round
     * trip, how many of them ran to the end (all of them, or those before the one that failed). Throws as {@link #run}.
     */
    public void batch(List<String> scripts, IntConsumer done) throws ProbeException {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < scripts.size(); i++) {
            b.append(scripts.get(i)).append("\necho '").append(MARK).append("DONE'\n");
        }
        HostShell.Result r = unchecked(b.toString());
        done.accept((int) new String(r.stdout(), StandardCharsets.UTF_8).lines().filter((MARK + "DONE")::equals).count());
        succeeded(r);
    }

    /** Renames the staged copies of {@code paths} over their targets, in order; the paths renamed, in order. */
    public List<String> renameStaged(List<String> paths) throws ProbeException {
        StringBuilder b = new StringBuilder();
        for (String p : paths) {
            b.append("f=\"$(target \"$R\"").append(q(p)).append(")\"\n")
                    .append("[ -f \"$f").append(STAGED).append("\" ] || fail ").append(q(p + ": its staged"
                            + " copy is missing")).append('\n')
                    .append("mv -f -- \"$f").append(STAGED).append("\" \"$f\"\nprintf '%s\\n' ")
                    .append(q(p)).append('\n');
        }
        return run(b.toString()).lines().filter(l -> !l.isBlank()).toList();
    }

    /** Removes the staged copies ({@link #stage}) of {@code paths} that are there; prints each one removed. */
    public List<String> discardStaged(List<String> paths) throws ProbeException {
        StringBuilder b = new StringBuilder();
        for (String p : paths) {
            b.append("f=\"$(target \"$R\"").append(q(p)).append(")\"\n")
                    .append("if [ -e \"$f").append(STAGED).append("\" ]; then rm -f -- \"$f")
                    .append(STAGED).append("\"; printf '%s\\n' ").append(q(p)).append("; fi\n")
                    .append("rm -f -- \"$f.gpuforge-tmp\"\n");
        }
        String out = run(b.toString());
        return out.lines().filter(l -> !l.isBlank()).toList();
    }

    /**
     * Runs a GPUForge script (after the prelude, also on a sysroot) that may run long, its output handed to {@code
     * lines} while it runs; the result carries its exit status.
     */
    public HostShell.Result stream(String script, Duration limit, HostShell.LineListener lines) throws ProbeException {
        String full = PRELUDE + script + "\n";
        return shell.run(command(), full.getBytes(StandardCharsets.UTF_8), limit, lines);
    }

    /** Removes the file {@code path} stands for (a GPUForge file that did not exist before the apply). */
    public void delete(String path) throws ProbeException {
        run("f=\"$(target \"$R\"" + q(path) + ")\"\nrm -f -- \"$f\"");
    }

    /** Copies with mode, owner and times ({@code cp -p}), through symbolic links at both ends; atomic, flushed. */
    public void copy(String from, String to) throws ProbeException {
        run(copying(from, to));
    }

    /** The script of {@link #copy}, for a {@link #batch}. */
    public static String copying(String from, String to) {
        return "s=\"$(target \"$R\"" + q(from) + ")\"\nf=\"$(target \"$R\"" + q(to) + ")\"\n"
                + "mkdir -p -- \"${f%/*}\"\ntmp=\"$f.gpuforge-tmp\"\n"
                + "cp -p -- \"$s\" \"$tmp\"\nflush \"$tmp\" " + q(to) + "\nmv -f -- \"$tmp\" \"$f\"\ntmp=";
    }

    /**
     * Runs a refresh command (update-grub…) on the host, its output handed to {@code lines} while it runs. Never on
     * a sysroot (those commands are listed for the user). A non-zero exit is in the result; a broken connection or
     * the time limit is an exception ({@link CommandTimeoutException}).
     */
    public HostShell.Result command(String command, Duration limit, HostShell.LineListener lines) throws ProbeException {
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
    public static String tail(HostShell.Result r) {
        String text = (new String(r.stdout(), StandardCharsets.UTF_8) + "\n" + r.stderr()).strip();
        if (text.isEmpty()) {
            return "";
        }
        String[] lines = text.split("\n");
        StringBuilder b = new StringBuilder();
        for (int i = Math.max(0, lines.length - 3); i < lines.length; i++) {
            b.append(b.length() == 0 ? "" : " / ").append(lines[i].strip());
        }
        return ": " + ProbeStream.shorten(b.toString());
    }

    public String describe() {
        return shell.describe() + (sysroot() ? " (sysroot " + root + ")" : "");
    }
}
