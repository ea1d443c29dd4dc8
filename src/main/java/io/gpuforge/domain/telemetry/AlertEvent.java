package io.gpuforge.domain.telemetry;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * An alert that fired or cleared: which rule, which GPU (its model, where known), when, and the value that made it
 * (the temperature, the percentage of the limit, the throttle reason bits; none for a lost source).
 */
public record AlertEvent(AlertRule rule, GpuId gpu, String gpuName, State state, long atMillis, OptionalDouble value) {

    public enum State { FIRED, CLEARED }

    public AlertEvent {
        Objects.requireNonNull(rule);
        Objects.requireNonNull(gpu);
        Objects.requireNonNull(gpuName);
        Objects.requireNonNull(state);
        Objects.requireNonNull(value);
    }

    public Instant at() {
        return Instant.ofEpochMilli(atMillis);
    }

    /** What happened, in words (the log and the events panel). */
    public String describe() {
        String who = (gpuName.isEmpty() ? gpu.device() : gpuName) + " (" + gpu + ")";
        String v = value.isPresent() ? String.format(Locale.ROOT, " (now %.1f)", value.getAsDouble()) : "";
        if (rule.kind() == AlertRule.Kind.THROTTLING) {
            v = value.isPresent() ? String.format(Locale.ROOT, " (reasons 0x%x)", (long) value.getAsDouble())
                    : "";
        }
        return (state == State.FIRED ? "Alert: " : "Cleared: ") + who + ": " + rule.describe().replaceFirst(" on .*$", "")
                + v;
    }
}
