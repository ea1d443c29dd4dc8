package io.gpuforge.domain.diagnose;

import io.gpuforge.domain.message.Message;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What a cause's evidence weighs, and so where it ranks: the score (each independent strong line by how surely it
 * names the cause, halved for a person's words and for a line long before the failure), how many independent lines
 * (one message quoted twice is one), from which kinds of log, how long before the failure the last of them was
 * written when the log says, and all of it said for a person ("3 lines from the kernel log, the last 2 s before the
 * start failed").
 */
public record Weight(double score, int lines, List<LogSource> sources, OptionalLong secondsBeforeFailure,
                     Message said) {

    public Weight {
        sources = List.copyOf(sources);
        Objects.requireNonNull(secondsBeforeFailure);
        Objects.requireNonNull(said);
    }
}
