package io.gpuforge.app.monitor;

import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceStatus;
import io.gpuforge.store.TelemetryStore;
import io.gpuforge.telemetry.SampleSink;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Where one watch's samples go: each GPU's latest reading (gaps left out), the store (a write asked for when its
 * queue is full), then the watcher (the batch as its source read it); source changes to the watcher alone. Called on
 * telemetry threads.
 */
final class StoringSink implements SampleSink {

    private final Map<GpuId, GpuSample> latest;
    private final TelemetryStore store;
    private final Runnable writeSoon;
    private final Consumer<List<GpuSample>> samples;
    private final Consumer<SourceStatus> status;

    StoringSink(Map<GpuId, GpuSample> latest, TelemetryStore store, Runnable writeSoon,
                Consumer<List<GpuSample>> samples, Consumer<SourceStatus> status) {
        this.latest = latest;
        this.store = store;
        this.writeSoon = writeSoon;
        this.samples = samples;
        this.status = status;
    }

    @Override
    public void samples(List<GpuSample> batch) {
        for (GpuSample s : batch) {
            if (!s.isGap()) {
                latest.put(s.gpu(), s);
            }
        }
        if (store.append(batch)) {
            writeSoon.run();
        }
        samples.accept(batch);
    }

    @Override
    public void status(SourceStatus s) {
        status.accept(s);
    }
}
