package io.gpuforge.ui.monitor;

import java.util.Arrays;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;
import javafx.scene.paint.Color;

/**
 * Dense lines drawn a pixel column at a time into an image the chart blits in one call. A series with about a
 * point per pixel column or more would otherwise be a path of thousands of segments that JavaFX rasterizes on the
 * CPU (Marlin) for every frame, in the software and the GPU pipeline alike: with 8 GPUs over a day that was most
 * of a frame. Here each column gets one vertical span from the previous column's last value through its own
 * minimum and maximum to its last value, as thick as the stroked line (its neighbour column gets the fraction of
 * the width beyond one pixel), blended over what is drawn already. Sparse series stay stroked paths; the chart
 * decides. The buffer and the image are kept while the size stays.
 */
final class ColumnRaster {

    private int width;
    private int height;
    private int[] pixels = new int[0];
    private WritableImage image;

    /** Clears the buffer for a plot of {@code w} × {@code h} device pixels. */
    void begin(int w, int h) {
        if (w != width || h != height) {
            width = w;
            height = h;
            pixels = new int[Math.max(1, w * h)];
            image = new WritableImage(Math.max(1, w), Math.max(1, h));
        } else {
            Arrays.fill(pixels, 0);
        }
    }

    int width() {
        return width;
    }

    int height() {
        return height;
    }

    /** The points of {@code s} inside the window. */
    static int visiblePoints(ChartSeries s, long from, long to) {
        int n = 0;
        for (int i = 0; i < s.size(); i++) {
            long t = s.time(i);
            if (t >= from && t <= to) {
                n++;
            }
        }
        return n;
    }

    /**
     * A dense line of the window {@code from}..{@code to}, values {@code lo}..{@code hi} over {@code ph} logical
     * pixels: the columns GpuChart's stroked line joins, at the device's resolution ({@code scale}); a column the
     * data skips is bridged from the last value to the next as a stroke would; NaN breaks the line.
     */
    void line(ChartSeries s, long from, long to, Color c, double lo, double hi, double ph, double scale) {
        double thick = (s.dashed ? 1.2 : 1.6) * scale;
        double ys = ph / (hi - lo) * scale;
        double base = ph * scale;
        // the column before and its last value, where the next column's line comes from
        int[] before = {Integer.MIN_VALUE};
        double[] enter = {Double.NaN};
        ColumnWalk.walk(s, from, to, width, (x, first, min, max, last, joined) -> {
            double yFirst = base - (first - lo) * ys;
            if (!joined) {
                enter[0] = Double.NaN;
            } else {
                // a column the data skips is bridged from the last value to the next, as a stroke would
                double from0 = enter[0];
                for (int k = before[0] + 1; k < x; k++) {
                    double yk = from0 + (yFirst - from0) * (k - before[0]) / (double) (x - before[0]);
                    column(s, k, enter[0], yk, yk, yk, thick, c, scale);
                    enter[0] = yk;
                }
            }
            double yLast = base - (last - lo) * ys;
            // values grow upwards, device pixels downwards: the highest value is the top
            column(s, x, Double.isNaN(enter[0]) ? yFirst : enter[0], base - (max - lo) * ys, base - (min - lo) * ys,
                    yLast, thick, c, scale);
            before[0] = x;
            enter[0] = yLast;
        });
    }

    private void column(ChartSeries s, int x, double enter, double min, double max, double last, double thick,
                        Color c, double scale) {
        if (s.dashed && Math.floorMod((int) (x / scale), 9) >= 5) {
            return;
        }
        double top = Double.isNaN(enter) ? min : Math.min(enter, min);
        double bottom = Double.isNaN(enter) ? max : Math.max(enter, max);
        span(x, Math.min(top, last), Math.max(bottom, last), thick, c);
    }

    /**
     * One column's span from {@code y0} to {@code y1} (device pixels, either order), {@code thickness} device pixels
     * high at its ends and wide (the neighbour column gets the part beyond one pixel), in {@code c}.
     */
    void span(int x, double y0, double y1, double thickness, Color c) {
        double top = Math.min(y0, y1) - thickness / 2;
        double bottom = Math.max(y0, y1) + thickness / 2;
        fill(x, top, bottom, c, 1);
        double extra = Math.min(1, thickness - 1);
        if (extra > 0) {
            fill(x + 1, top, bottom, c, extra);
        }
    }

    private void fill(int x, double top, double bottom, Color c, double alpha) {
        if (x < 0 || x >= width || bottom <= 0 || top >= height) {
            return;
        }
        int first = (int) Math.max(0, Math.floor(top));
        int last = (int) Math.min(height - 1, Math.ceil(bottom) - 1);
        for (int y = first; y <= last; y++) {
            double cover = Math.min(bottom, y + 1) - Math.max(top, y);
            if (cover > 0) {
                blend(y * width + x, c, alpha * Math.min(1, cover));
            }
        }
    }

    /** Source-over in premultiplied ARGB. */
    private void blend(int i, Color c, double coverage) {
        double a = c.getOpacity() * coverage;
        int dst = pixels[i];
        double keep = 1 - a;
        int da = dst >>> 24;
        int dr = (dst >> 16) & 0xff;
        int dg = (dst >> 8) & 0xff;
        int db = dst & 0xff;
        int oa = (int) Math.round(a * 255 + da * keep);
        int or = (int) Math.round(c.getRed() * a * 255 + dr * keep);
        int og = (int) Math.round(c.getGreen() * a * 255 + dg * keep);
        int ob = (int) Math.round(c.getBlue() * a * 255 + db * keep);
        pixels[i] = (oa << 24) | (or << 16) | (og << 8) | ob;
    }

    /** The drawn columns as an image (the same instance while the size stays). */
    WritableImage image() {
        image.getPixelWriter().setPixels(0, 0, width, height, PixelFormat.getIntArgbPreInstance(), pixels, 0, width);
        return image;
    }

    /** The premultiplied ARGB of one pixel (tests). */
    int pixel(int x, int y) {
        return pixels[y * width + x];
    }
}
