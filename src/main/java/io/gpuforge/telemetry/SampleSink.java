package io.gpuforge.telemetry;

import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceStatus;
import java.util.List;

/** Where a source's readings go (the store, the latest values, a watching command); called on the pool. */
public interface SampleSink {

    void samples(List<GpuSample> samples);

    /** The source started, failed (its GPUs then have a gap marker in {@link #samples}) or recovered. */
    default void status(SourceStatus status) {
    }
}
