package io.gpuforge.ui.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.ReducedSeries;
import io.gpuforge.domain.telemetry.SeriesKey;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.store.TelemetryStore;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.TestContexts;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javafx.scene.Scene;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.layout.StackPane;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Frame time of the temperature chart with 8 GPUs × 24 h of 1 Hz readings (691,200 points): the monitor's path
 * (the store's history reduced to the chart's pixel width, drawn on its canvas) against a naive JavaFX LineChart
 * handed every point. One frame = set the data, lay out and render (a snapshot). Writes
 * target/bench/monitor-chart.json. Run with {@code mvn -o -B verify -Pbench -Dtest='Monitor*Bench*'}.
 */
@Tag("bench")
@ExtendWith(ApplicationExtension.class)
class MonitorChartBench {

    private static final int GPUS = 8;
    private static final int SECONDS = 24 * 3600;
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 260;
    private static final int WARMUPS = 3;
    private static final int RUNS = 21;

    @Test
    void eightSeriesOfADay() throws Exception {
        Path home = Files.createTempDirectory("gpuforge-bench-monitor-");
        try (AppContext app = TestContexts.create(home.resolve("home"), HostTrees.proxmoxSystemdBoot(
                home.resolve("sysroot")), ThemeChoice.LIGHT, LanguageChoice.ENGLISH)) {
            long end = System.currentTimeMillis();
            long start = end - SECONDS * 1000L;
            List<SeriesKey> keys = new ArrayList<>();
            double[][] raw = new double[GPUS][SECONDS];
            TelemetryStore store = new TelemetryStore(app.database(), Clock.systemUTC(),
                    TelemetryStore.Retention.defaults());
            for (int g = 0; g < GPUS; g++) {
                GpuId id = new GpuId("bench:lab/node-" + g / 4, "0000:0" + (g % 4 + 1) + ":00.0");
                keys.add(new SeriesKey(id, GpuMetric.TEMPERATURE_C));
                List<GpuSample> day = new ArrayList<>(SECONDS);
                for (int s = 0; s < SECONDS; s++) {
                    double v = 45 + 25 * Math.sin((s + g * 900) / 1800.0) + (s * 7919 % 13) / 4.0;
                    raw[g][s] = v;
                    day.add(GpuSample.builder(id, start + s * 1000L, SourceKind.SIMULATED).name("Bench GPU")
                            .intervalMillis(1000).set(GpuMetric.TEMPERATURE_C, v).build());
                }
                store.append(day);
                store.flush();
            }
            GpuChart chart = new GpuChart("bench-chart", "°C", Double.NaN, Double.NaN);
            Scene[] scene = new Scene[2];
            WaitForAsyncUtils.asyncFx(() -> {
                scene[0] = new Scene(new StackPane(chart), WIDTH, HEIGHT);
                scene[0].snapshot(null);
            });
            WaitForAsyncUtils.waitForFxEvents();
            int width = WaitForAsyncUtils.asyncFx(() -> chart.plotWidth() > 0 ? chart.plotWidth() : WIDTH).get();
            Instant from = Instant.ofEpochMilli(start);
            Instant to = Instant.ofEpochMilli(end);
            // the day's raw samples read as if no minute had been rolled up (the naive way of the same store) ...
            List<Double> rawQueries = new ArrayList<>();
            for (int r = 0; r < WARMUPS + RUNS; r++) {
                long q0 = System.nanoTime();
                app.telemetry().history().reduced(keys, from, to, width);
                if (r >= WARMUPS) {
                    rawQueries.add(millis(System.nanoTime() - q0));
                }
            }
            // ... then rolled up as the service does every minute of the day (here the whole day at once)
            int minutes = store.rollUpAndPrune();
            List<Double> ours = new ArrayList<>();
            List<Double> queries = new ArrayList<>();
            int points = 0;
            for (int r = 0; r < WARMUPS + RUNS; r++) {
                long q0 = System.nanoTime();
                List<ReducedSeries> reduced = app.telemetry().history().reduced(keys, from, to, width);
                double queried = millis(System.nanoTime() - q0);
                List<ChartSeries> lines = new ArrayList<>();
                for (int g = 0; g < reduced.size(); g++) {
                    lines.add(ChartSeries.of(reduced.get(g), g, false));
                }
                points = lines.stream().mapToInt(ChartSeries::size).sum();
                AtomicLong took = new AtomicLong();
                WaitForAsyncUtils.asyncFx(() -> {
                    long t0 = System.nanoTime();
                    chart.setContent("Temperature", lines, List.of(new GpuChart.Threshold(87, "slowdown 87 °C",
                            false)), start, end, false, "");
                    chart.draw();
                    scene[0].snapshot(null);
                    took.set(System.nanoTime() - t0);
                });
                WaitForAsyncUtils.waitForFxEvents();
                if (r >= WARMUPS) {
                    ours.add(millis(took.get()));
                    queries.add(queried);
                }
            }
            AtomicLong naive = new AtomicLong();
            WaitForAsyncUtils.asyncFx(() -> {
                long t0 = System.nanoTime();
                LineChart<Number, Number> lc = new LineChart<>(new NumberAxis(), new NumberAxis());
                lc.setAnimated(false);
                lc.setCreateSymbols(false);
                for (int g = 0; g < GPUS; g++) {
                    XYChart.Series<Number, Number> s = new XYChart.Series<>();
                    List<XYChart.Data<Number, Number>> data = new ArrayList<>(SECONDS);
                    for (int i = 0; i < SECONDS; i++) {
                        data.add(new XYChart.Data<>(start + i * 1000L, raw[g][i]));
                    }
                    s.getData().setAll(data);
                    lc.getData().add(s);
                }
                scene[1] = new Scene(new StackPane(lc), WIDTH, HEIGHT);
                scene[1].snapshot(null);
                naive.set((System.nanoTime() - t0) / 1_000_000);
            });
            WaitForAsyncUtils.waitForFxEvents();
            double median = median(ours);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("benchmark", "monitor-chart-8x24h");
            out.put("series", GPUS);
            out.put("raw_points", (long) GPUS * SECONDS);
            out.put("drawn_points", points);
            out.put("width_px", WIDTH);
            out.put("monitor_frame_ms", ours);
            out.put("monitor_frame_median_ms", median);
            out.put("monitor_history_query_ms", queries);
            out.put("monitor_history_query_median_ms", median(queries));
            out.put("minutes_rolled_up", minutes);
            out.put("raw_history_query_ms", rawQueries);
            out.put("raw_history_query_median_ms", median(rawQueries));
            out.put("ratio_raw_vs_rollup_query", Math.round(100.0 * median(rawQueries)
                    / Math.max(0.1, median(queries))) / 100.0);
            out.put("naive_linechart_frame_ms", naive.get());
            out.put("ratio_naive_vs_monitor", Math.round(100.0 * naive.get() / Math.max(0.1, median)) / 100.0);
            out.put("machine_load_average", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            Path dir = Path.of("target/bench");
            Files.createDirectories(dir);
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(dir.resolve("monitor-chart.json").toFile(), out);
            assertThat(points).as("the reduced lines hold about the width's points, not the day's")
                    .isLessThan(GPUS * (WIDTH * 4 + 64));
        } finally {
            try (Stream<Path> s = Files.walk(home)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return sorted.get(sorted.size() / 2);
    }

    private static double millis(long nanos) {
        return Math.round(nanos / 100_000.0) / 10.0;
    }
}
