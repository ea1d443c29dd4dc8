package io.gpuforge.domain.diagnose;

import java.util.Objects;

/** A line of a log that shows a cause: which log, where it came from, its line number (from 1) and its text. */
public record Evidence(String input, LogSource source, int line, String text) {

    public Evidence {
        Objects.requireNonNull(input);
        Objects.requireNonNull(source);
        Objects.requireNonNull(text);
    }
}
