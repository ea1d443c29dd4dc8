package io.gpuforge.domain.telemetry;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How a source is doing: delivering, or failing (with the message that says what is wrong and what to do)
 * and when it is tried again. A failing source leaves a gap in its GPUs' series.
 */
public record SourceStatus(SourceInfo source, State state, Optional<String> problem, Optional<Instant> retryAt,
                           int gpus) {

    public enum State { STARTING, OK, FAILING, STOPPED }

    public SourceStatus {
        Objects.requireNonNull(source);
        Objects.requireNonNull(state);
        Objects.requireNonNull(problem);
        Objects.requireNonNull(retryAt);
    }
}
