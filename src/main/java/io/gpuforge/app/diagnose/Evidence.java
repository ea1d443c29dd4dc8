package io.gpuforge.app.diagnose;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.diagnose.Collected;
import io.gpuforge.domain.diagnose.LogInput;
import io.gpuforge.domain.diagnose.LogSource;
import io.gpuforge.domain.diagnose.Origin;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one diagnosis was given so far: the texts for the engine, and for every source what was read of it or why it
 * was not, with the time fetching it took. A fetched text is read the way a pasted log is ({@link LogReader}: its end
 * kept past the limit, colour codes dropped, binary refused). Not thread-safe: one diagnosis, one thread.
 */
final class Evidence {

    private final LogReader reader;
    private final List<LogInput> inputs = new ArrayList<>();
    private final List<Collected> collected = new ArrayList<>();

    Evidence(LogReader reader) {
        this.reader = reader;
    }

    /** A source's text, fetched since {@code t0} ({@link System#nanoTime()}). */
    void text(String name, Message label, LogSource source, String text, long t0) {
        LogReader.Read r = reader.pasted(name, text);
        // fetched by GPUForge: from the host (its logs, the hypervisor's), or from the guest through its agent
        Origin origin = source == LogSource.GUEST ? Origin.GUEST : Origin.HOST;
        r.input().ifPresent(in -> inputs.add(new LogInput(in.name(), source == LogSource.PASTED ? Optional.empty()
                : Optional.of(source), in.text(), origin)));
        Collected c = r.collected();
        collected.add(new Collected(c.name(), label, source, c.bytesRead(), c.bytesSkipped(), c.lines(), c.problem(),
                millis(t0)));
    }

    /** A source that could not be read, with why; tried since {@code t0}. */
    void missing(String name, Message label, LogSource source, Message problem, long t0) {
        collected.add(new Collected(name, label, source, 0, 0, 0, Optional.of(problem), millis(t0)));
    }

    /** A log the user gave (a file, stdin), as {@link LogReader} read it. */
    void given(LogReader.Read r) {
        r.input().ifPresent(inputs::add);
        collected.add(r.collected());
    }

    List<LogInput> inputs() {
        return inputs;
    }

    List<Collected> collected() {
        return collected;
    }

    private static long millis(long t0) {
        return Math.max(1, (System.nanoTime() - t0) / 1_000_000);
    }
}
