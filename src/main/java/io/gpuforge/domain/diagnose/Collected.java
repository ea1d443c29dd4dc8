package io.gpuforge.domain.diagnose;

import io.gpuforge.domain.message.Message;
import java.util.Objects;
import java.util.Optional;

/**
 * One log the diagnosis was given and what became of it: how much of it was read and what was skipped, or why it
 * could not be read at all ({@link #problem()}; then nothing of it was used).
 *
 * @param name the log's name, as its lines are cited ({@code /var/log/kern.log}, {@code the kernel log of pve-1})
 * @param label what the log is, in words for the user's language
 * @param bytesRead bytes of it the diagnosis read
 * @param bytesSkipped bytes of it left unread (the start of a file larger than the limit, the rest of stdin)
 * @param lines lines read
 * @param problem why it could not be read, in words
 * @param millis how long fetching it took (a host, a cluster, a guest), 0 for what the user gave
 */
public record Collected(String name, Message label, LogSource source, long bytesRead, long bytesSkipped, int lines,
                        Optional<Message> problem, long millis) {

    public Collected {
        Objects.requireNonNull(name);
        Objects.requireNonNull(label);
        Objects.requireNonNull(source);
        Objects.requireNonNull(problem);
    }

    public static Collected failed(String name, Message label, Message problem) {
        return new Collected(name, label, LogSource.PASTED, 0, 0, 0, Optional.of(problem), 0);
    }

    public boolean read() {
        return problem.isEmpty();
    }

    /** The same log, told as another kind, fetched in {@code millis}. */
    public Collected as(LogSource kind, long millis) {
        return new Collected(name, label, kind, bytesRead, bytesSkipped, lines, problem, millis);
    }
}
