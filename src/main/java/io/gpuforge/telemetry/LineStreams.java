package io.gpuforge.telemetry;

import java.io.IOException;

/**
 * Starts long-lived commands on a host and hands their output over line by line as it comes: this computer's
 * processes ({@link LocalLineStreams}) or a host over SSH ({@link SshHost}). What the {@code nvidia-smi -lms} stream needs, and no
 * more.
 */
public interface LineStreams {

    /** Where the commands run, for messages ("local", "ssh:root@pve1"). */
    String describe();

    /**
     * Starts {@code command} (through {@code sh -c}). Lines (without their line end) go to {@code sink} in order on
     * a thread of the shared pool; a last line cut off by the end of the command is handed to
     * {@link Sink#ended} as {@code partial}, never as a line.
     */
    Running start(String command, Sink sink) throws IOException;

    /** Receives a running command's output. */
    interface Sink {
        void line(String line);

        /**
         * The command ended: its exit code ({@code -1} when unknown or killed), a partial last line (empty when
         * the output ended with a line end), and what it wrote to stderr (capped).
         */
        void ended(int exitCode, String partial, String stderr);

        /**
         * The command could not be started, or the way to its host was lost while it ran (a dropped SSH
         * connection): whether it still runs there is unknown. {@code why} is the message for the user.
         */
        default void lost(String why) {
            ended(-1, "", why);
        }
    }

    /** A running command; closing stops it (and what it started) and never blocks long. */
    interface Running extends AutoCloseable {
        @Override
        void close();
    }
}
