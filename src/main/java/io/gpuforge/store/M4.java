package io.gpuforge.store;

import io.gpuforge.domain.telemetry.ReducedSeries;
import java.util.ArrayList;
import java.util.List;

/**
 * M4 reduction (Jugel et al., VLDB 2014): the window is cut into equal buckets and each bucket keeps its first,
 * last, minimum and maximum point, so a line chart drawn from the result looks like one drawn from every point,
 * peaks and dips included. Gaps are found on the way: a gap marker between two readings, or two readings further
 * apart than their sampling interval allows ({@link #maxGapMillis}); the line is never drawn across them.
 */
public final class M4 {

    private M4() {
    }

    /** Two readings further apart than this are a gap (2.5 intervals, and at least the interval + 1.5 s). */
    public static long maxGapMillis(int intervalMillis) {
        long iv = intervalMillis <= 0 ? 1000 : intervalMillis;
        return Math.max(iv * 5 / 2, iv + 1500);
    }

    /** The result of one reduction. */
    record Result(List<ReducedSeries.Point> points, List<ReducedSeries.Gap> gaps, long count) {
    }

    /**
     * Reduces points in time order to at most {@code maxPoints} (4 per bucket). NaN values are absent readings;
     * {@code gap[i]} marks gap markers; {@code intervals[i]} the sampling interval of each point.
     */
    static Result reduce(long[] t, double[] v, boolean[] gap, int[] intervals, int n, long from, long to,
                         int maxPoints) {
        int buckets = Math.max(1, maxPoints / 4);
        double width = Math.max(1.0, (double) (to - from) / buckets);
        List<ReducedSeries.Point> out = new ArrayList<>(Math.min(n, buckets * 4));
        List<ReducedSeries.Gap> gaps = new ArrayList<>();
        int bucket = -1;
        int first = -1;
        int last = -1;
        int lo = -1;
        int hi = -1;
        int prev = -1;
        boolean brokenSincePrev = false;
        long count = 0;
        for (int i = 0; i < n; i++) {
            long ti = t[i];
            if (ti < from || ti >= to) {
                continue;
            }
            if (gap[i]) {
                brokenSincePrev = true;
                continue;
            }
            double vi = v[i];
            if (Double.isNaN(vi)) {
                continue;
            }
            count++;
            if (prev >= 0 && (brokenSincePrev || ti - t[prev] > maxGapMillis(intervals[prev]))) {
                gaps.add(new ReducedSeries.Gap(t[prev], ti));
            }
            brokenSincePrev = false;
            prev = i;
            int b = (int) Math.min(buckets - 1, (long) ((ti - from) / width));
            if (b != bucket) {
                flush(out, t, v, first, lo, hi, last);
                bucket = b;
                first = i;
                lo = i;
                hi = i;
            }
            last = i;
            if (vi < v[lo]) {
                lo = i;
            }
            if (vi > v[hi]) {
                hi = i;
            }
        }
        flush(out, t, v, first, lo, hi, last);
        return new Result(out, coalesce(gaps, (long) width, maxPoints), count);
    }

    private static void flush(List<ReducedSeries.Point> out, long[] t, double[] v, int first, int lo, int hi, int last) {
        if (first < 0) {
            return;
        }
        int a = Math.min(lo, hi);
        int b = Math.max(lo, hi);
        int[] order = {first, a, b, last};
        int previous = -1;
        for (int i : order) {
            if (i != previous) {
                out.add(new ReducedSeries.Point(t[i], v[i]));
                previous = i;
            }
        }
    }

    /** More gaps than points is noise at this width: gaps closer than a bucket are merged. */
    static List<ReducedSeries.Gap> coalesce(List<ReducedSeries.Gap> gaps, long width, int max) {
        if (gaps.size() <= max) {
            return gaps;
        }
        List<ReducedSeries.Gap> out = new ArrayList<>();
        ReducedSeries.Gap cur = null;
        for (ReducedSeries.Gap g : gaps) {
            if (cur != null && g.fromMillis() - cur.toMillis() < width) {
                cur = new ReducedSeries.Gap(cur.fromMillis(), g.toMillis());
            } else {
                if (cur != null) {
                    out.add(cur);
                }
                cur = g;
            }
        }
        if (cur != null) {
            out.add(cur);
        }
        return out;
    }
}
