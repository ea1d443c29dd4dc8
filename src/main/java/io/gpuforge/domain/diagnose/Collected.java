package io.gpuforge.domain.diagnose;

import java.util.Objects;
import java.util.Optional;

/**
 * One log the diagnosis was given and what became of it: how much of it was read and what was skipped, or why it
 * could not be read at all ({@link #problem()}; then nothing of it was used).
 *
 * @param bytesRead bytes of it the diagnosis read
 * @param bytesSkipped bytes of it left unread (the start of a file larger than the limit, the rest of stdin)
 * @param lines lines read
 * @param millis how long fetching it took (a host, a cluster, a guest), 0 for what the user gave
 */
public record Collected(String name, LogSource source, long bytesRead, long bytesSkipped, int lines,
                        Optional<String> problem, long millis) {

    public Collected(String name, LogSource source, long bytesRead, long bytesSkipped, int lines,
                     Optional<String> problem) {
        this(name, source, bytesRead, bytesSkipped, lines, problem, 0);
    }

    public Collected {
        Objects.requireNonNull(name);
        Objects.requireNonNull(source);
        Objects.requireNonNull(problem);
    }

    public static Collected failed(String name, String problem) {
        return new Collected(name, LogSource.PASTED, 0, 0, 0, Optional.of(problem));
    }

    public boolean read() {
        return problem.isEmpty();
    }
}
