package io.gpuforge.domain.tasks;

import java.time.Instant;
import java.util.Objects;

/** One line of the event log: something GPUForge did or saw. {@code id} is 0 until stored. */
public record AppEvent(long id, Instant at, Level level, String source, String message) {

    public enum Level { INFO, WARN, ERROR }

    public AppEvent {
        Objects.requireNonNull(at);
        Objects.requireNonNull(level);
        Objects.requireNonNull(source);
        Objects.requireNonNull(message);
    }

    public static AppEvent of(Level level, String source, String message) {
        return new AppEvent(0, Instant.now(), level, source, message);
    }
}
