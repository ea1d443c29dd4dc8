package io.gpuforge.ui.monitor;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

/**
 * A time chart drawn on a canvas: several lines (one colour per GPU, dashed for limits), breaks where the readings
 * stop (gaps stay gaps, shaded), horizontal threshold lines (slowdown and shutdown temperatures), time and value
 * axes. Drawing costs at most a few operations per pixel column, however many points a line has: each column draws
 * its minimum-maximum range once. Wheel zooms, dragging scrolls back. Drawn only when asked ({@link #draw}).
 */
final class GpuChart extends Region {

    /** A horizontal line across the chart at a value, with its label. */
    record Threshold(double value, String label, boolean danger) {
    }

    static final Color[] LIGHT = {Color.web("#1f6feb"), Color.web("#e8590c"), Color.web("#2f9e44"),
        Color.web("#ae3ec9"), Color.web("#c92a2a"), Color.web("#0c8599"), Color.web("#f08c00"), Color.web("#5c7cfa")};
    static final Color[] DARK = {Color.web("#58a6ff"), Color.web("#ff922b"), Color.web("#69db7c"),
        Color.web("#da77f2"), Color.web("#ff6b6b"), Color.web("#3bc9db"), Color.web("#ffd43b"), Color.web("#91a7ff")};
    private static final double LEFT = 52;
    private static final double RIGHT = 12;
    private static final double TOP = 22;
    private static final double BOTTOM = 22;

    private final Canvas canvas = new Canvas();
    private final ColumnRaster raster = new ColumnRaster();
    private final String unit;
    private final double fixedMin;
    private final double fixedMax;
    private String title = "";
    private List<ChartSeries> series = List.of();
    private List<Threshold> thresholds = List.of();
    private long from;
    private long to = 1;
    private boolean dark;
    private String empty = "";
    private Runnable onResize = () -> { };
    private BiConsumer<Double, Long> onZoom = (f, t) -> { };
    private LongConsumer onPan = d -> { };
    private double dragX = Double.NaN;
    private long draws;

    /** @param fixedMin NaN for a range that follows the data (likewise {@code fixedMax}) */
    GpuChart(String id, String unit, double fixedMin, double fixedMax) {
        setId(id);
        this.unit = unit;
        this.fixedMin = fixedMin;
        this.fixedMax = fixedMax;
        getStyleClass().add("gpu-chart");
        getChildren().add(canvas);
        setMinHeight(150);
        setPrefHeight(190);
        setOnScroll(e -> {
            if (e.getDeltaY() != 0) {
                onZoom.accept(e.getDeltaY() > 0 ? 1 / 1.25 : 1.25, timeAt(e.getX()));
            }
        });
        setOnMousePressed(e -> dragX = e.getX());
        setOnMouseDragged(e -> {
            if (!Double.isNaN(dragX)) {
                double dx = e.getX() - dragX;
                dragX = e.getX();
                onPan.accept(Math.round(-dx * millisPerPixel()));
            }
        });
        setOnMouseReleased(e -> dragX = Double.NaN);
    }

    void onResize(Runnable r) {
        this.onResize = r;
    }

    void onZoom(BiConsumer<Double, Long> z) {
        this.onZoom = z;
    }

    void onPan(LongConsumer p) {
        this.onPan = p;
    }

    void setContent(String newTitle, List<ChartSeries> lines, List<Threshold> limits, long fromMillis, long toMillis,
                    boolean darkTheme, String emptyText) {
        this.title = newTitle;
        this.series = List.copyOf(lines);
        this.thresholds = List.copyOf(limits);
        this.from = fromMillis;
        this.to = Math.max(fromMillis + 1, toMillis);
        this.dark = darkTheme;
        this.empty = emptyText;
    }

    /** The plot's width in pixels: how many points a window should be reduced to. */
    int plotWidth() {
        return (int) Math.max(40, getWidth() - LEFT - RIGHT);
    }

    /** How often it was drawn (tests: hidden charts are not drawn). */
    long draws() {
        return draws;
    }

    List<ChartSeries> series() {
        return series;
    }

    private double millisPerPixel() {
        return (to - from) / (double) plotWidth();
    }

    private long timeAt(double x) {
        return from + Math.round((x - LEFT) * millisPerPixel());
    }

    @Override
    protected void layoutChildren() {
        double w = Math.floor(getWidth());
        double h = Math.floor(getHeight());
        if (canvas.getWidth() != w || canvas.getHeight() != h) {
            canvas.setWidth(w);
            canvas.setHeight(h);
            onResize.run();
        }
    }

    void draw() {
        draws++;
        GraphicsContext g = canvas.getGraphicsContext2D();
        double w = canvas.getWidth();
        double h = canvas.getHeight();
        Color bg = dark ? Color.web("#0d1117") : Color.WHITE;
        Color grid = dark ? Color.web("#30363d") : Color.web("#e5e7eb");
        Color text = dark ? Color.web("#c9d1d9") : Color.web("#424a53");
        g.setFill(bg);
        g.fillRect(0, 0, w, h);
        if (w < LEFT + RIGHT + 10 || h < TOP + BOTTOM + 10) {
            return;
        }
        double pw = w - LEFT - RIGHT;
        double ph = h - TOP - BOTTOM;
        g.setFont(Font.font(11));
        g.setFill(text);
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.CENTER);
        g.fillText(title, LEFT, TOP / 2);
        double[] range = range();
        double lo = range[0];
        double hi = range[1];
        // value grid
        g.setLineWidth(1);
        g.setLineDashes();
        g.setTextAlign(TextAlignment.RIGHT);
        double tick = range[2];
        int ticks = (int) Math.round((hi - lo) / tick);
        for (int i = 0; i <= ticks; i++) {
            double val = lo + tick * i;
            double y = Math.round(TOP + ph - ph * i / ticks) + 0.5;
            g.setStroke(grid);
            g.strokeLine(LEFT, y, LEFT + pw, y);
            g.setFill(text);
            g.fillText(ChartTicks.format(val) + (i == ticks ? " " + unit : ""), LEFT - 4, y);
        }
        // time grid
        long span = to - from;
        long step = ChartTicks.timeStep(span);
        DateTimeFormatter f = ChartTicks.timeFormat(span);
        g.setTextAlign(TextAlignment.CENTER);
        long offset = ZoneId.systemDefault().getRules().getOffset(Instant.ofEpochMilli(from)).getTotalSeconds() * 1000L;
        for (long t = Math.floorDiv(from + offset, step) * step - offset + step; t < to; t += step) {
            double x = Math.round(LEFT + (t - from) / (double) span * pw) + 0.5;
            g.setStroke(grid);
            g.strokeLine(x, TOP, x, TOP + ph);
            g.setFill(text);
            g.fillText(f.format(Instant.ofEpochMilli(t)), x, TOP + ph + BOTTOM / 2);
        }
        g.save();
        g.beginPath();
        g.rect(LEFT, TOP, pw, ph);
        g.clip();
        Color[] palette = dark ? DARK : LIGHT;
        for (ChartSeries s : series) {
            shadeGaps(g, s, pw, ph, dark ? Color.web("#ffffff", 0.06) : Color.web("#000000", 0.05));
        }
        double scale = getScene() == null || getScene().getWindow() == null ? 1 : getScene().getWindow().getOutputScaleX();
        raster.begin((int) Math.ceil(pw * scale), (int) Math.ceil(ph * scale));
        boolean rastered = false;
        for (ChartSeries s : series) {
            if (ColumnRaster.visiblePoints(s, from, to) >= pw / 2) {
                raster.line(s, from, to, palette[s.color % palette.length], lo, hi, ph, scale);
                rastered = true;
            }
        }
        if (rastered) {
            g.drawImage(raster.image(), LEFT, TOP, pw, ph);
        }
        for (ChartSeries s : series) {
            if (ColumnRaster.visiblePoints(s, from, to) < pw / 2) {
                line(g, s, palette[s.color % palette.length], lo, hi, pw, ph);
            }
        }
        g.setLineWidth(1.2);
        g.setLineDashes(6, 4);
        g.setTextAlign(TextAlignment.RIGHT);
        double previous = Double.NaN;
        List<Threshold> downwards = thresholds.stream()
                .sorted(Comparator.comparingDouble(Threshold::value).reversed()).toList();
        for (Threshold th : downwards) {
            if (th.value() < lo || th.value() > hi) {
                continue;
            }
            double y = TOP + ph - (th.value() - lo) / (hi - lo) * ph;
            Color c = th.danger() ? Color.web("#e03131") : Color.web("#f08c00");
            g.setStroke(c);
            g.strokeLine(LEFT, y, LEFT + pw, y);
            g.setFill(c);
            // the top line's label above it; a line close below another one gets its label underneath
            boolean below = !Double.isNaN(previous) && y - previous < 14;
            g.setTextBaseline(below ? VPos.TOP : VPos.BOTTOM);
            g.fillText(th.label(), LEFT + pw - 4, below ? y + 2 : y - 2);
            previous = y;
        }
        g.restore();
        g.setLineDashes();
        if (series.stream().allMatch(s -> s.size() == 0)) {
            g.setFill(text);
            g.setTextAlign(TextAlignment.CENTER);
            g.setTextBaseline(VPos.CENTER);
            g.fillText(empty, LEFT + pw / 2, TOP + ph / 2);
        }
    }

    /**
     * The value range and its tick step: fixed, or the visible data's with the thresholds near it, a little padded
     * and widened to round ticks (20, 40, 60 rather than 23.3, 42.3, 61.4).
     */
    private double[] range() {
        if (!Double.isNaN(fixedMin) && !Double.isNaN(fixedMax)) {
            return new double[] {fixedMin, fixedMax, ChartTicks.niceStep((fixedMax - fixedMin) / 4)};
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (ChartSeries s : series) {
            for (int i = 0; i < s.size(); i++) {
                double v = s.value(i);
                if (!Double.isNaN(v) && s.time(i) >= from && s.time(i) <= to) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        if (lo > hi) {
            lo = 0;
            hi = 100;
        }
        for (Threshold t : thresholds) {
            if (t.value() <= hi + (hi - lo + 10) * 0.5) {
                hi = Math.max(hi, t.value());
            }
        }
        double pad = Math.max(1, (hi - lo) * (thresholds.isEmpty() ? 0.05 : 0.1));
        lo = Double.isNaN(fixedMin) ? Math.max(0, lo - pad) : fixedMin;
        hi = hi + pad;
        double step = ChartTicks.niceStep((hi - lo) / 4);
        lo = Double.isNaN(fixedMin) ? Math.floor(lo / step) * step : lo;
        hi = Math.ceil(hi / step) * step;
        return new double[] {lo, hi, step};
    }

    private void shadeGaps(GraphicsContext g, ChartSeries s, double pw, double ph, Color shade) {
        g.setFill(shade);
        for (int i = 0; i < s.size(); i++) {
            if (Double.isNaN(s.value(i))) {
                long a = s.time(i);
                long b = i + 1 < s.size() ? s.time(i + 1) : to;
                double x0 = LEFT + (a - from) / (double) (to - from) * pw;
                double x1 = LEFT + (b - from) / (double) (to - from) * pw;
                if (x1 > LEFT && x0 < LEFT + pw) {
                    g.fillRect(Math.max(LEFT, x0), TOP, Math.min(LEFT + pw, x1) - Math.max(LEFT, x0), ph);
                }
            }
        }
    }

    /**
     * The line, one pixel column at a time: each column joins the previous column's last value, spans its own minimum
     * to maximum, and ends at its last value. A NaN breaks the line.
     */
    private void line(GraphicsContext g, ChartSeries s, Color c, double lo, double hi, double pw, double ph) {
        g.setStroke(c);
        g.setLineWidth(s.dashed ? 1.2 : 1.6);
        if (s.dashed) {
            g.setLineDashes(5, 4);
        } else {
            g.setLineDashes();
        }
        double scale = ph / (hi - lo);
        g.beginPath();
        ColumnWalk.walk(s, from, to, pw, (x, first, min, max, last, joined) -> {
            double y = TOP + ph - (first - lo) * scale;
            if (joined) {
                g.lineTo(LEFT + x + 0.5, y);
            } else {
                g.moveTo(LEFT + x + 0.5, y);
            }
            flush(g, x, min, max, last, lo, scale, ph);
        });
        g.stroke();
    }

    private static void flush(GraphicsContext g, int column, double min, double max, double last, double lo,
                              double scale, double ph) {
        double x = LEFT + column + 0.5;
        if (max > min) {
            g.lineTo(x, TOP + ph - (max - lo) * scale);
            g.lineTo(x, TOP + ph - (min - lo) * scale);
        }
        g.lineTo(x, TOP + ph - (last - lo) * scale);
    }
}
