package io.gpuforge.ui.monitor;

import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.ReducedSeries;
import io.gpuforge.domain.telemetry.SeriesKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the charts draw for the chosen GPUs: every metric's line, first the reduced history of the window (at most
 * the chart's width in points), then the live readings that arrived since, appended. {@link #tooLong} says when the
 * live end has grown past what the width needs, so the window is read (reduced) again. FX thread only.
 */
final class ChartData {

    private final List<FleetGpu> gpus;
    private final Map<SeriesKey, ChartSeries> lines = new LinkedHashMap<>();
    private final Map<GpuId, Long> appendedUntil = new LinkedHashMap<>();
    /** the readings behind each line: the history's raw count, then each live reading appended */
    private final Map<SeriesKey, Long> readings = new LinkedHashMap<>();
    private final int width;
    private int appended;

    private ChartData(List<FleetGpu> gpus, int width) {
        this.gpus = List.copyOf(gpus);
        this.width = width;
    }

    static List<SeriesKey> keys(List<FleetGpu> gpus) {
        List<SeriesKey> keys = new ArrayList<>();
        for (FleetGpu g : gpus) {
            for (ChartKind k : ChartKind.values()) {
                for (GpuMetric m : k.metrics()) {
                    keys.add(new SeriesKey(g.id(), m));
                }
            }
        }
        return keys;
    }

    /** The history read for a window ending at {@code loadedTo}. */
    static ChartData of(List<FleetGpu> gpus, List<ReducedSeries> history, long loadedTo, int width) {
        ChartData d = new ChartData(gpus, width);
        Map<SeriesKey, ReducedSeries> byKey = new LinkedHashMap<>();
        history.forEach(r -> byKey.put(r.key(), r));
        for (int i = 0; i < gpus.size(); i++) {
            FleetGpu g = gpus.get(i);
            for (ChartKind k : ChartKind.values()) {
                for (GpuMetric m : k.metrics()) {
                    SeriesKey key = new SeriesKey(g.id(), m);
                    ReducedSeries r = byKey.get(key);
                    boolean dashed = m != k.main;
                    d.lines.put(key, r == null ? new ChartSeries(i, dashed, 64) : ChartSeries.of(r, i, dashed));
                    d.readings.put(key, r == null ? 0 : r.rawCount());
                }
            }
            d.appendedUntil.put(g.id(), loadedTo);
        }
        return d;
    }

    /** No history (nothing chosen yet). */
    static ChartData empty() {
        return new ChartData(List.of(), 100);
    }

    List<FleetGpu> gpus() {
        return gpus;
    }

    /** The lines of one chart, in the order of the GPUs. */
    List<ChartSeries> lines(ChartKind k) {
        List<ChartSeries> out = new ArrayList<>();
        for (FleetGpu g : gpus) {
            for (GpuMetric m : k.metrics()) {
                ChartSeries s = lines.get(new SeriesKey(g.id(), m));
                if (s != null) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    ChartSeries line(GpuId gpu, GpuMetric m) {
        return lines.get(new SeriesKey(gpu, m));
    }

    long appendedUntil(GpuId gpu) {
        return appendedUntil.getOrDefault(gpu, Long.MAX_VALUE);
    }

    /** Appends live readings of a GPU (oldest first); a gap marker breaks every line of that GPU. */
    void append(GpuId gpu, List<GpuSample> samples) {
        for (GpuSample s : samples) {
            if (s.timeMillis() <= appendedUntil(gpu)) {
                continue;
            }
            for (ChartKind k : ChartKind.values()) {
                for (GpuMetric m : k.metrics()) {
                    ChartSeries line = lines.get(new SeriesKey(gpu, m));
                    if (line == null) {
                        continue;
                    }
                    if (s.isGap()) {
                        if (!line.endsInGap()) {
                            line.add(s.timeMillis(), Double.NaN);
                        }
                    } else if (s.has(m)) {
                        line.add(s.timeMillis(), s.raw(m));
                        readings.merge(new SeriesKey(gpu, m), 1L, Long::sum);
                    }
                }
            }
            appendedUntil.put(gpu, s.timeMillis());
            appended++;
        }
    }

    /** A chart's line with the most readings: the points it draws (gap markers left out) and the readings behind them. */
    record Density(int points, long readings) {
        /** Whether the line draws fewer points than it has readings. */
        boolean reduced() {
            return readings > points;
        }
    }

    Density density(ChartKind k) {
        Density most = new Density(0, 0);
        for (Map.Entry<SeriesKey, ChartSeries> e : lines.entrySet()) {
            if (e.getKey().metric() != k.main) {
                continue;
            }
            long r = readings.getOrDefault(e.getKey(), 0L);
            if (r >= most.readings()) {
                ChartSeries s = e.getValue();
                int points = 0;
                for (int i = 0; i < s.size(); i++) {
                    points += Double.isNaN(s.value(i)) ? 0 : 1;
                }
                most = new Density(points, r);
            }
        }
        return most;
    }

    /** The live end holds more readings than the width needs: read the window again, reduced. */
    boolean tooLong() {
        return appended > Math.max(64, gpus.size() * width * 2L);
    }
}
