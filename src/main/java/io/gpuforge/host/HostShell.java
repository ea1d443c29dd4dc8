package io.gpuforge.host;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Runs a command on a host: this machine or one reached over SSH. */
public interface HostShell extends AutoCloseable {

    /** What a command returned. stdout is raw bytes (capped); stderr is capped text for messages. */
    record Result(int exitCode, byte[] stdout, String stderr) {
    }

    /** Receives the output of a running command, one line at a time (without its line end). */
    @FunctionalInterface
    interface LineListener {
        void line(String line, boolean stderr);
    }

    /** A short name of the host for messages and JSON ("local", "ssh:root@pve1:22"). */
    String describe();

    /**
     * Runs {@code command} through {@code sh -c}, feeding {@code stdin}; fails after {@code timeout}
     * ({@link CommandTimeoutException}).
     */
    Result run(String command, byte[] stdin, Duration timeout) throws ProbeException;

    /**
     * Runs like {@link #run(String, byte[], Duration)} and hands each line the command writes to stdout or stderr
     * to {@code lines} while it runs, on the calling thread, one line at a time. A shell that cannot stream hands
     * the lines over when the command has ended.
     */
    default Result run(String command, byte[] stdin, Duration timeout, LineListener lines) throws ProbeException {
        Result r = run(command, stdin, timeout);
        new String(r.stdout(), StandardCharsets.UTF_8).lines().forEach(l -> lines.line(l, false));
        r.stderr().lines().forEach(l -> lines.line(l, true));
        return r;
    }

    @Override
    void close();
}
