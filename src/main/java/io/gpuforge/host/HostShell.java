package io.gpuforge.host;

import java.time.Duration;

/** Runs a command on a host: this machine or one reached over SSH. */
public interface HostShell extends AutoCloseable {

    /** What a command returned. stdout is raw bytes; stderr is capped text for messages. */
    record Result(int exitCode, byte[] stdout, String stderr) {
    }

    /** A short name of the host for messages and JSON ("local", "ssh:root@pve1:22"). */
    String describe();

    /** Runs {@code command} through {@code sh -c}, feeding {@code stdin}; fails after {@code timeout}. */
    Result run(String command, byte[] stdin, Duration timeout) throws ProbeException;

    @Override
    void close();
}
