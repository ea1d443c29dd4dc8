package io.gpuforge.ui.monitor;

/**
 * A series' points in a chart's window, gathered a pixel column at a time: each column's first, lowest, highest and
 * last value, and whether the line comes into it from the column before (a NaN breaks the line). Points a little
 * outside the window are kept, so that a line enters and leaves at the edges. Both ways a chart draws a line (a
 * stroked path, {@link GpuChart}; a raster, {@link ColumnRaster}) walk it so.
 */
final class ColumnWalk {

    /** Told each column as it is complete, left to right. */
    @FunctionalInterface
    interface Columns {
        /** Column {@code x} holds values {@code first}..{@code last} between {@code min} and {@code max}. */
        void column(int x, double first, double min, double max, double last, boolean joined);
    }

    private ColumnWalk() {
    }

    /** Walks {@code s} over {@code from}..{@code to} mapped onto {@code width} columns. */
    static void walk(ChartSeries s, long from, long to, double width, Columns out) {
        double span = to - from;
        int column = Integer.MIN_VALUE;
        double first = 0;
        double min = 0;
        double max = 0;
        double last = 0;
        boolean open = false;
        boolean joined = false;
        for (int i = 0; i < s.size(); i++) {
            long t = s.time(i);
            double v = s.value(i);
            if (t < from - span * 0.02 && i + 1 < s.size() && s.time(i + 1) < from) {
                continue;
            }
            if (t > to + span * 0.02) {
                break;
            }
            if (Double.isNaN(v)) {
                if (open) {
                    out.column(column, first, min, max, last, joined);
                }
                open = false;
                joined = false;
                continue;
            }
            int x = (int) Math.floor((t - from) / span * width);
            if (open && x == column) {
                min = Math.min(min, v);
                max = Math.max(max, v);
                last = v;
                continue;
            }
            if (open) {
                out.column(column, first, min, max, last, joined);
                joined = true;
            }
            open = true;
            column = x;
            first = v;
            min = v;
            max = v;
            last = v;
        }
        if (open) {
            out.column(column, first, min, max, last, joined);
        }
    }
}
