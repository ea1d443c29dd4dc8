package io.gpuforge.domain.diagnose;

import java.util.Objects;
import java.util.Optional;

/**
 * One log as read: its name (a file, {@code stdin}, {@code pasted}), where it came from when known (the engine
 * guesses from the text otherwise), and its text, already bounded by whoever read it.
 */
public record LogInput(String name, Optional<LogSource> source, String text) {

    public LogInput {
        Objects.requireNonNull(name);
        Objects.requireNonNull(source);
        Objects.requireNonNull(text);
    }

    public static LogInput of(String name, String text) {
        return new LogInput(name, Optional.empty(), text);
    }
}
