package io.gpuforge.app.host;

import io.gpuforge.domain.host.HostException;
import java.time.Instant;
import java.util.Optional;

/**
 * Logs read from a host for a diagnosis: its kernel log around a time, the end of a log file. Each within the host
 * scripts' deadline (60 s) and the shell's output cap, and at most the lines asked for. Blocking.
 */
public final class HostLogs {

    private final HostAccess access;

    public HostLogs(HostAccess access) {
        this.access = access;
    }

    /**
     * The host's kernel log from a minute before {@code since} (its last {@code maxLines} lines otherwise):
     * {@code journalctl -k} where the host has it, else {@code dmesg}. A sysroot has no running kernel: refused.
     */
    public String kernelLog(HostTarget target, Optional<Instant> since, int maxLines, HostKeyPrompt prompt)
            throws HostException {
        try (HostAccess.Opened h = access.open(target, prompt)) {
            if (h.sysroot().isPresent()) {
                throw new HostException(h.describe() + " is a directory of files, with no running kernel to ask");
            }
            String from = since.map(t -> " --since @" + (t.getEpochSecond() - 60)).orElse("");
            return HostScripts.run(h, "Reading the kernel log", "if command -v journalctl >/dev/null 2>&1; then"
                    + " journalctl -k --no-pager -q -o short-iso" + from + " | tail -n " + maxLines + "\n"
                    + "elif command -v dmesg >/dev/null 2>&1; then dmesg | tail -n " + maxLines + "\n"
                    + "else echo 'neither journalctl nor dmesg is on this host' >&2; exit 3; fi");
        }
    }

    /** The last {@code maxLines} lines of a file of the host (through its links, inside a sysroot); empty when absent. */
    public Optional<String> tail(HostTarget target, String path, int maxLines, HostKeyPrompt prompt)
            throws HostException {
        try (HostAccess.Opened h = access.open(target, prompt)) {
            String out = HostScripts.run(h, "Reading " + path, "f=\"$(target \"$R\"" + HostScripts.q(path) + ")\"\n"
                    + "if [ -f \"$f\" ]; then echo EXISTS; tail -n " + maxLines + " -- \"$f\"; else echo ABSENT; fi");
            return out.startsWith("EXISTS\n") ? Optional.of(out.substring("EXISTS\n".length())) : Optional.empty();
        }
    }
}
