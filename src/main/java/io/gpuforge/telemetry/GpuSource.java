package io.gpuforge.telemetry;

import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceInfo;
import java.util.List;

/**
 * A source of GPU readings: NVML, an {@code nvidia-smi} stream, the guest agent of a VM, amdgpu hwmon, an
 * exporter, or the Demo lab's simulation. A source is either {@link Polled} (the sampler asks it at each tick) or
 * {@link Streaming} (it delivers by itself). Either way it runs on the shared {@link TelemetryThreads}.
 */
public interface GpuSource extends AutoCloseable {

    SourceInfo info();

    @Override
    void close();

    /** Asked for a reading of all its GPUs at each tick. */
    interface Polled extends GpuSource {
        /**
         * Reads every GPU once; blocking, bounded by the source's own time limits. Timestamps are {@code nowMillis}
         * (on receipt). Throws with a message for the user when nothing could be read.
         */
        List<GpuSample> poll(long nowMillis, int intervalMillis) throws SourceException;
    }

    /** Delivers by itself (one long-lived process); restarts itself with backoff when it dies. */
    interface Streaming extends GpuSource {
        void start(int intervalMillis, SampleSink sink, TelemetryThreads threads);
    }
}
