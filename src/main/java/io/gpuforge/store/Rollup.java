package io.gpuforge.store;

import io.gpuforge.domain.telemetry.GpuMetric;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** A minute of raw samples as its rollup: per metric min/avg/max, and the energy and the time it covers. */
final class Rollup {

    private Rollup() {
    }

    /**
     * @param before the previous minute's chunk (its last sample starts the interval that runs into this minute)
     * @param after  the next minute's chunk (its first sample ends this minute's last interval)
     */
    static GpuRollupRepository.Minute of(Optional<GpuChunkRepository.Chunk> before, GpuChunkRepository.Chunk chunk,
                                         Optional<GpuChunkRepository.Chunk> after) {
        int n = chunk.samples();
        long[] t = new long[SampleCodec.count(chunk.data())];
        int[] iv = new int[t.length];
        double[][] rows = SampleCodec.decodeAll(chunk.startMillis(), chunk.data(), t, iv);
        int metrics = GpuMetric.count();
        double[] min = new double[metrics];
        double[] max = new double[metrics];
        double[] sum = new double[metrics];
        int[] cnt = new int[metrics];
        Arrays.fill(min, Double.POSITIVE_INFINITY);
        Arrays.fill(max, Double.NEGATIVE_INFINITY);
        int samples = 0;
        for (double[] row : rows) {
            boolean any = false;
            for (int m = 0; m < metrics; m++) {
                double v = row[m];
                if (!Double.isNaN(v)) {
                    any = true;
                    min[m] = Math.min(min[m], v);
                    max[m] = Math.max(max[m], v);
                    sum[m] += v;
                    cnt[m]++;
                }
            }
            if (any) {
                samples++;
            }
        }
        double[] avg = new double[metrics];
        for (int m = 0; m < metrics; m++) {
            if (cnt[m] == 0) {
                min[m] = Double.NaN;
                max[m] = Double.NaN;
                avg[m] = Double.NaN;
            } else {
                avg[m] = sum[m] / cnt[m];
            }
        }
        List<SampleCodec.Column> cols = new ArrayList<>();
        before.ifPresent(b -> cols.add(last(SampleCodec.decode(b.startMillis(), b.data(), GpuMetric.POWER_W))));
        cols.add(SampleCodec.decode(chunk.startMillis(), chunk.data(), GpuMetric.POWER_W));
        after.ifPresent(a -> cols.add(first(SampleCodec.decode(a.startMillis(), a.data(), GpuMetric.POWER_W))));
        Energy.Integral e = Energy.integrate(Energy.concat(cols), chunk.startMillis(),
                chunk.startMillis() + TelemetryStore.CHUNK_MILLIS, Optional.empty());
        return new GpuRollupRepository.Minute(chunk.seriesId(), chunk.startMillis(), n == 0 ? 0 : samples,
                e.coveredMillis(), e.joules(), min, avg, max);
    }

    private static SampleCodec.Column last(SampleCodec.Column c) {
        return slice(c, c.size() - 1);
    }

    private static SampleCodec.Column first(SampleCodec.Column c) {
        return slice(c, 0);
    }

    private static SampleCodec.Column slice(SampleCodec.Column c, int i) {
        if (c.size() == 0) {
            return c;
        }
        return new SampleCodec.Column(new long[] {c.times()[i]}, new int[] {c.intervals()[i]},
                new double[] {c.values()[i]}, new boolean[] {c.gap()[i]}, 1);
    }
}
