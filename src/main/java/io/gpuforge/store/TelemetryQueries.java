package io.gpuforge.store;

import io.gpuforge.domain.telemetry.EnergyReport;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.ReducedSeries;
import io.gpuforge.domain.telemetry.SeriesKey;
import io.gpuforge.domain.telemetry.Tariff;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What charts and reports read: windows already reduced to a number of points per series (M4 over raw samples, or
 * over 1-minute rollups past the raw retention), so no caller ever loads a day of raw points; and energy over any
 * window, gaps left out and reported.
 */
public final class TelemetryQueries {

    private final TelemetryStore store;

    public TelemetryQueries(TelemetryStore store) {
        this.store = store;
    }

    /** Each series over [from, to), reduced to at most {@code points} points. Unknown GPUs give empty series. */
    public List<ReducedSeries> reduced(List<SeriesKey> keys, Instant from, Instant to, int points) throws StoreException {
        if (!to.isAfter(from)) {
            throw new IllegalArgumentException("the window must end after it starts (" + from + " .. " + to + ")");
        }
        if (points < 4 || points > 100_000) {
            throw new IllegalArgumentException("a reduced window has 4 to 100,000 points, not " + points);
        }
        Map<GpuId, Long> ids = new LinkedHashMap<>();
        store.series().all().forEach(r -> ids.put(r.gpu(), r.id()));
        long f = from.toEpochMilli();
        long t = to.toEpochMilli();
        long rawFrom = store.clock().millis() - store.retention().raw().toMillis();
        long rolled = store.rolledUpUntil();
        // a bucket of the chart (4 points) two minutes wide or more: the minute rollups say as much as the raw samples
        boolean coarse = (t - f) / Math.max(1, points / 4) >= 2 * TelemetryStore.CHUNK_MILLIS;
        long head = Math.min(t, Math.floorDiv(f + TelemetryStore.CHUNK_MILLIS - 1, TelemetryStore.CHUNK_MILLIS)
                * TelemetryStore.CHUNK_MILLIS);
        List<ReducedSeries> out = new ArrayList<>();
        for (SeriesKey k : keys) {
            Long id = ids.get(k.gpu());
            if (id == null) {
                out.add(new ReducedSeries(k, from, to, ReducedSeries.Resolution.RAW, List.of(), List.of(), 0));
            } else if (f >= rawFrom && !coarse || rolled <= head) {
                M4.Result r = raw(id, k.metric(), f, t, points);
                out.add(new ReducedSeries(k, from, to, ReducedSeries.Resolution.RAW, r.points(), r.gaps(), r.count()));
            } else {
                out.add(mixed(k, id, from, to, head, Math.min(t, rolled), points));
            }
        }
        return out;
    }

    /**
     * A window read from the minute rollups over [head, split) (whole minutes), with the raw samples of the part
     * minute before and of what is not rolled up yet after; the points shared out by time.
     */
    private ReducedSeries mixed(SeriesKey k, long id, Instant from, Instant to, long head, long split, int points)
            throws StoreException {
        long f = from.toEpochMilli();
        long t = to.toEpochMilli();
        List<ReducedSeries.Point> pts = new ArrayList<>();
        List<ReducedSeries.Gap> gaps = new ArrayList<>();
        long count = 0;
        List<M4.Result> parts = new ArrayList<>();
        if (head > f) {
            parts.add(raw(id, k.metric(), f, head, share(points, head - f, t - f)));
        }
        parts.add(minutes(id, k.metric(), head, split, share(points, split - head, t - f)));
        if (split < t) {
            parts.add(raw(id, k.metric(), split, t, share(points, t - split, t - f)));
        }
        for (M4.Result r : parts) {
            pts.addAll(r.points());
            gaps.addAll(r.gaps());
            count += r.count();
        }
        return new ReducedSeries(k, from, to, ReducedSeries.Resolution.MINUTE, pts, gaps, count);
    }

    private static int share(int points, long part, long whole) {
        return (int) Math.max(4, (long) points * part / whole);
    }

    private M4.Result raw(long id, GpuMetric metric, long from, long to, int points) throws StoreException {
        List<SampleCodec.Column> cols = new ArrayList<>();
        for (GpuChunkRepository.Chunk c : store.chunks().read(id, from, to)) {
            cols.add(SampleCodec.decode(c.startMillis(), c.data(), metric));
        }
        SampleCodec.Column all = Energy.concat(cols);
        return M4.reduce(all.times(), all.values(), all.gap(), all.intervals(), all.size(), from, to, points);
    }

    /** Rollups as two readings a minute (its minimum and maximum), so that M4 keeps both. */
    private M4.Result minutes(long id, GpuMetric metric, long from, long to, int points) throws StoreException {
        List<GpuRollupRepository.Minute> rows = store.rollups().read(id, from, to);
        int n = rows.size() * 2;
        long[] t = new long[n];
        double[] v = new double[n];
        boolean[] g = new boolean[n];
        int[] iv = new int[n];
        int p = 0;
        int m = metric.ordinal();
        long samples = 0;
        for (GpuRollupRepository.Minute r : rows) {
            t[p] = r.minuteMillis() + 20_000;
            v[p] = r.min()[m];
            iv[p++] = (int) TelemetryStore.CHUNK_MILLIS;
            t[p] = r.minuteMillis() + 40_000;
            v[p] = r.max()[m];
            iv[p++] = (int) TelemetryStore.CHUNK_MILLIS;
            samples += r.samples();
        }
        M4.Result r = M4.reduce(t, v, g, iv, p, from, to, points);
        return new M4.Result(r.points(), r.gaps(), samples); // the samples the minutes stand for
    }

    /**
     * Energy per GPU, VM and node over [from, to); {@code which} picks GPUs (all when it accepts all). Raw samples
     * where they are kept, rollups before.
     */
    public EnergyReport energy(Instant from, Instant to, Optional<Tariff> tariff,
                               Function<GpuSeriesRepository.Row, Boolean> which) throws StoreException {
        if (!to.isAfter(from)) {
            throw new IllegalArgumentException("the window must end after it starts (" + from + " .. " + to + ")");
        }
        long f = from.toEpochMilli();
        long t = to.toEpochMilli();
        long window = t - f;
        long rawFrom = Math.floorDiv(store.clock().millis() - store.retention().raw().toMillis()
                + TelemetryStore.CHUNK_MILLIS, TelemetryStore.CHUNK_MILLIS) * TelemetryStore.CHUNK_MILLIS;
        long split = Math.max(f, Math.min(t, Math.min(rawFrom, store.rolledUpUntil())));
        List<EnergyReport.Line> gpus = new ArrayList<>();
        Map<String, Energy.Integral> vms = new LinkedHashMap<>();
        Map<String, Energy.Integral> nodes = new LinkedHashMap<>();
        Map<String, Integer> vmGpus = new LinkedHashMap<>();
        Map<String, Integer> nodeGpus = new LinkedHashMap<>();
        Energy.Integral total = new Energy.Integral(0, 0, 0);
        int count = 0;
        for (GpuSeriesRepository.Row row : store.series().all()) {
            if (!which.apply(row)) {
                continue;
            }
            Energy.Integral e = new Energy.Integral(0, 0, 0);
            if (split > f) {
                for (GpuRollupRepository.Minute m : store.rollups().read(row.id(), f, split)) {
                    double cost = tariff.map(x -> m.energyJoules() / 3.6e6 * x.priceAt(m.minuteMillis() + 30_000))
                            .orElse(0.0);
                    e = e.plus(new Energy.Integral(m.energyJoules(), m.coveredMillis(), cost));
                }
            }
            if (split < t) {
                List<SampleCodec.Column> cols = new ArrayList<>();
                for (GpuChunkRepository.Chunk c : store.chunks().read(row.id(), split - TelemetryStore.CHUNK_MILLIS, t)) {
                    cols.add(SampleCodec.decode(c.startMillis(), c.data(), GpuMetric.POWER_W));
                }
                e = e.plus(Energy.integrate(Energy.concat(cols), split, t, tariff));
            }
            String label = (row.name().isEmpty() ? row.gpu().device() : row.name()) + " on " + row.gpu().host();
            gpus.add(line(row.gpu().toString(), label, e, window, tariff));
            if (row.vm().isPresent()) {
                vms.merge(row.vm().get(), e, Energy.Integral::plus);
                vmGpus.merge(row.vm().get(), 1, Integer::sum);
            }
            String node = row.node().orElse(row.gpu().host());
            nodes.merge(node, e, Energy.Integral::plus);
            nodeGpus.merge(node, 1, Integer::sum);
            total = total.plus(e);
            count++;
        }
        List<EnergyReport.Line> vmLines = new ArrayList<>();
        vms.forEach((k, e) -> vmLines.add(line(k, k, e, window * vmGpus.get(k), tariff)));
        List<EnergyReport.Line> nodeLines = new ArrayList<>();
        nodes.forEach((k, e) -> nodeLines.add(line(k, k, e, window * nodeGpus.get(k), tariff)));
        return new EnergyReport(from, to, gpus, vmLines, nodeLines,
                line("total", "all GPUs", total, window * count, tariff), tariff.map(Tariff::currency));
    }

    /** A line; {@code window} is the GPU time asked for (the window times the GPUs summed), gaps what is not covered. */
    private static EnergyReport.Line line(String key, String label, Energy.Integral e, long window,
                                          Optional<Tariff> tariff) {
        long gaps = Math.max(0, window - e.coveredMillis());
        return new EnergyReport.Line(key, label, e.joules(), Duration.ofMillis(e.coveredMillis()),
                Duration.ofMillis(gaps), tariff.map(x -> e.cost()));
    }
}
