package io.gpuforge.domain.diagnose;

import io.gpuforge.domain.message.Message;
import java.util.Objects;
import java.util.Optional;

/** The fix of a cause: what to do, in words, and the plan GPUForge would apply where it can make one. */
public record Fix(Message text, Optional<FixPlan> plan) {

    public Fix {
        Objects.requireNonNull(text);
        plan = Objects.requireNonNull(plan).filter(p -> !p.isEmpty());
    }

    public static Fix text(Message text) {
        return new Fix(text, Optional.empty());
    }

    public static Fix withPlan(Message text, FixPlan plan) {
        return new Fix(text, Optional.of(plan));
    }
}
