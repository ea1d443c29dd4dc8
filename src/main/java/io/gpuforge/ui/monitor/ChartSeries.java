package io.gpuforge.ui.monitor;

import io.gpuforge.domain.telemetry.ReducedSeries;
import java.util.Arrays;
import java.util.List;

/**
 * One line of a chart as the canvas draws it: times and values, NaN where the line breaks (a gap), its colour
 * (index into the palette), whether it is dashed (a limit), and its legend text. Growable at its end (live readings),
 * bounded by the caller. FX thread only.
 */
final class ChartSeries {

    final int color;
    final boolean dashed;
    private long[] t;
    private double[] v;
    private int n;

    ChartSeries(int color, boolean dashed, int capacity) {
        this.color = color;
        this.dashed = dashed;
        this.t = new long[Math.max(16, capacity)];
        this.v = new double[t.length];
    }

    /** A reduced window as a line: its points, with a break at every gap. */
    static ChartSeries of(ReducedSeries r, int color, boolean dashed) {
        ChartSeries s = new ChartSeries(color, dashed, r.points().size() + r.gaps().size() + 16);
        List<ReducedSeries.Gap> gaps = r.gaps();
        int g = 0;
        for (ReducedSeries.Point p : r.points()) {
            while (g < gaps.size() && gaps.get(g).toMillis() <= p.timeMillis()) {
                if (s.n > 0 && gaps.get(g).fromMillis() >= s.t[s.n - 1]) {
                    s.add(gaps.get(g).fromMillis() + 1, Double.NaN);
                }
                g++;
            }
            s.add(p.timeMillis(), p.value());
        }
        while (g < gaps.size()) {
            s.add(gaps.get(g++).fromMillis() + 1, Double.NaN);
        }
        return s;
    }

    void add(long time, double value) {
        if (n > 0 && time < t[n - 1]) {
            return; // older than what is drawn already
        }
        if (n == t.length) {
            t = Arrays.copyOf(t, n * 2);
            v = Arrays.copyOf(v, n * 2);
        }
        t[n] = time;
        v[n] = value;
        n++;
    }

    int size() {
        return n;
    }

    long time(int i) {
        return t[i];
    }

    double value(int i) {
        return v[i];
    }

    long lastTime() {
        return n == 0 ? Long.MIN_VALUE : t[n - 1];
    }

    /** Whether the line ends in a break (the source is lost now). */
    boolean endsInGap() {
        return n > 0 && Double.isNaN(v[n - 1]);
    }
}
