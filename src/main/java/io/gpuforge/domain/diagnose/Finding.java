package io.gpuforge.domain.diagnose;

import io.gpuforge.domain.message.Message;
import java.util.List;
import java.util.Objects;

/**
 * One cause the logs show: its id ({@code vga-slot-conflict}), a title, the lines that show it, what it means, its
 * fix, and what its lines weigh (why it ranks where it does); the words as {@link Message}s, rendered in the user's
 * language.
 */
public record Finding(String id, Message title, List<Evidence> evidence, Message explanation, Fix fix, Weight weight) {

    public Finding {
        Objects.requireNonNull(id);
        Objects.requireNonNull(title);
        evidence = List.copyOf(evidence);
        Objects.requireNonNull(explanation);
        Objects.requireNonNull(fix);
        Objects.requireNonNull(weight);
    }

    /**
     * Whether a line of the host's own that names the cause by itself is among the evidence: what a change on the
     * host may follow. A line in the guest's log, or pasted, may have been written by anyone.
     */
    public boolean shownByHost() {
        return evidence.stream().anyMatch(e -> e.strong() && e.origin() == Origin.HOST);
    }
}
