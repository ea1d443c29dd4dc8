package io.gpuforge.domain.telemetry;

import java.util.Objects;

/** One line on a chart: a metric of a GPU. */
public record SeriesKey(GpuId gpu, GpuMetric metric) {

    public SeriesKey {
        Objects.requireNonNull(gpu);
        Objects.requireNonNull(metric);
    }
}
