package io.gpuforge.domain.diagnose;

import java.util.Objects;
import java.util.Optional;

/**
 * One log as read: its name (a file, {@code stdin}, {@code pasted}), what kind of log it is when known (the engine
 * guesses from the text otherwise), its text, already bounded by whoever read it, and who wrote it ({@link Origin}).
 */
public record LogInput(String name, Optional<LogSource> source, String text, Origin origin) {

    public LogInput {
        Objects.requireNonNull(name);
        Objects.requireNonNull(source);
        Objects.requireNonNull(text);
        Objects.requireNonNull(origin);
    }

    /** A log the user gave: its origin is {@link Origin#PASTED}. */
    public LogInput(String name, Optional<LogSource> source, String text) {
        this(name, source, text, Origin.PASTED);
    }

    public static LogInput of(String name, String text) {
        return new LogInput(name, Optional.empty(), text);
    }
}
