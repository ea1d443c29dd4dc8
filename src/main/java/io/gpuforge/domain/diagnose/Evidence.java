package io.gpuforge.domain.diagnose;

import java.util.Objects;

/**
 * A line of a log that shows a cause: which log, what kind of log, its line number (from 1), its text, who wrote it
 * ({@link Origin}) and whether it names the cause by itself (strong) or only supports it.
 */
public record Evidence(String input, LogSource source, int line, String text, Origin origin, boolean strong) {

    public Evidence {
        Objects.requireNonNull(input);
        Objects.requireNonNull(source);
        Objects.requireNonNull(text);
        Objects.requireNonNull(origin);
    }

    /** A strong line of a log the user gave. */
    public Evidence(String input, LogSource source, int line, String text) {
        this(input, source, line, text, Origin.PASTED, true);
    }
}
