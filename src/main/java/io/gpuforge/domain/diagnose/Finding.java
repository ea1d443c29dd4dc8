package io.gpuforge.domain.diagnose;

import java.util.List;
import java.util.Objects;

/**
 * One cause the logs show: its id ({@code vga-slot-conflict}), a title, the lines that show it, what it means, and
 * its fix.
 */
public record Finding(String id, String title, List<Evidence> evidence, String explanation, Fix fix) {

    public Finding {
        Objects.requireNonNull(id);
        Objects.requireNonNull(title);
        evidence = List.copyOf(evidence);
        Objects.requireNonNull(explanation);
        Objects.requireNonNull(fix);
    }
}
