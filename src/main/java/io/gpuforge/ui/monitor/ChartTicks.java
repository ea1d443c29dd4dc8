package io.gpuforge.ui.monitor;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Where a chart's ticks go and how they read: value steps, time steps, labels. Pure. */
final class ChartTicks {

    private static final long[] TIME_STEPS = {60_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
        3 * 3_600_000L, 6 * 3_600_000L, 12 * 3_600_000L, 86_400_000L, 2 * 86_400_000L, 7 * 86_400_000L};

    private ChartTicks() {
    }

    /** 1, 2, 2.5 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        if (!(raw > 0)) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 2.5, 5}) {
            if (m * p >= raw) {
                return m * p;
            }
        }
        return 10 * p;
    }

    /** The time between two ticks for a window of {@code spanMillis}: at most 7 ticks, a week at most. */
    static long timeStep(long spanMillis) {
        for (long s : TIME_STEPS) {
            if (spanMillis / s <= 7) {
                return s;
            }
        }
        return TIME_STEPS[TIME_STEPS.length - 1];
    }

    /** How a time tick reads for a window of {@code spanMillis}: the date past two days, seconds under ten minutes. */
    static DateTimeFormatter timeFormat(long spanMillis) {
        return DateTimeFormatter.ofPattern(spanMillis > 2 * 86_400_000L ? "MM-dd" : spanMillis < 600_000
                ? "HH:mm:ss" : "HH:mm", Locale.ROOT).withZone(ZoneId.systemDefault());
    }

    /** A value's label: no decimals from 100 on or for whole numbers, thousands as "k" from 10,000. */
    static String format(double v) {
        double a = Math.abs(v);
        if (a >= 10_000) {
            return String.format(Locale.ROOT, "%.0fk", v / 1000);
        }
        return a >= 100 || v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v)
                : String.format(Locale.ROOT, "%.1f", v);
    }
}
