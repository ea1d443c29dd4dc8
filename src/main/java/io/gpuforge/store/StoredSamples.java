package io.gpuforge.store;

import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceKind;
import java.util.ArrayList;
import java.util.List;

/** A stored chunk back as the samples it holds, with its GPU's labels (name, node, VM, source). */
final class StoredSamples {

    private StoredSamples() {
    }

    static List<GpuSample> decode(GpuSeriesRepository.Row row, long start, byte[] data) {
        int n = SampleCodec.count(data);
        long[] t = new long[n];
        int[] iv = new int[n];
        double[][] values = SampleCodec.decodeAll(start, data, t, iv);
        List<GpuSample> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            GpuSample.Builder b = GpuSample.builder(row.gpu(), t[i], sourceOf(row)).name(row.name())
                    .node(row.node()).vm(row.vm()).intervalMillis(iv[i]);
            for (int m = 0; m < GpuMetric.count(); m++) {
                b.set(GpuMetric.of(m), values[i][m]);
            }
            out.add(b.build());
        }
        return out;
    }

    static SourceKind sourceOf(GpuSeriesRepository.Row row) {
        for (SourceKind k : SourceKind.values()) {
            if (k.json().equals(row.source())) {
                return k;
            }
        }
        return SourceKind.NVIDIA_SMI;
    }
}
