package io.gpuforge.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.ReducedSeries;
import io.gpuforge.domain.telemetry.SeriesKey;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.store.Database;
import io.gpuforge.store.TelemetryQueries;
import io.gpuforge.store.TelemetryStore;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * History in SQLite: ingest of 24 h × 8 GPUs at 1 Hz (691,200 samples of 15 metrics, written in batches of 9,600
 * samples = 20 minutes of the 8 GPUs, one transaction each; target ≥ 200k samples/s), then that window loaded and
 * reduced to 1,000 points per GPU (target < 100 ms; median of 7 after 2 warm-ups), from the raw samples and, once
 * rolled up as the service does every minute, from the minute rollups (a bucket of the chart is 5.8 minutes wide).
 * The naive way in the same run: a
 * row per sample (indexed by GPU and time) inserted in the same batches, and the window read row by row and reduced
 * to the same 1,000 min/max buckets in Java. Writes target/bench/telemetry-history.json.
 */
@Tag("bench")
class TelemetryHistoryBench {

    private static final int GPUS = 8;
    private static final int SECONDS = 24 * 3600;
    private static final int BATCH_SECONDS = 20 * 60;
    private static final int POINTS = 1000;
    private static final int RUNS = 7;
    private static final long T0 = Instant.parse("2026-06-01T00:00:00Z").toEpochMilli();
    private static final GpuMetric[] SET = {GpuMetric.TEMPERATURE_C, GpuMetric.POWER_W, GpuMetric.POWER_LIMIT_W,
        GpuMetric.POWER_MIN_LIMIT_W, GpuMetric.POWER_MAX_LIMIT_W, GpuMetric.UTILIZATION_PCT,
        GpuMetric.MEMORY_UTILIZATION_PCT, GpuMetric.MEMORY_USED_MIB, GpuMetric.MEMORY_TOTAL_MIB, GpuMetric.FAN_PCT,
        GpuMetric.SM_CLOCK_MHZ, GpuMetric.MEMORY_CLOCK_MHZ, GpuMetric.THROTTLE_REASONS, GpuMetric.SLOWDOWN_TEMP_C,
        GpuMetric.SHUTDOWN_TEMP_C};

    @TempDir
    Path dir;

    private static GpuId gpu(int g) {
        return new GpuId("ssh:root@pve1", BenchNvidiaSmi.uuid(1, g));
    }

    /** A batch: {@code BATCH_SECONDS} seconds of all GPUs, from second {@code from}. */
    private static List<GpuSample> batch(int from) {
        List<GpuSample> out = new ArrayList<>(BATCH_SECONDS * GPUS);
        for (int s = from; s < Math.min(SECONDS, from + BATCH_SECONDS); s++) {
            for (int g = 0; g < GPUS; g++) {
                double load = 0.5 + 0.5 * Math.sin(s / 900.0 + g);
                GpuSample.Builder b = GpuSample.builder(gpu(g), T0 + s * 1000L + g, SourceKind.NVIDIA_SMI)
                        .name("NVIDIA GeForce RTX 4090").node(Optional.of("pve1")).intervalMillis(1000);
                // as nvidia-smi reports them: whole degrees, % and MiB, power to 0.01 W, clocks in 15 MHz steps
                double[] v = {Math.round(40 + 40 * load), Math.round(3000 + 42000 * load + 100 * (s % 7)) / 100.0, 450,
                    150, 600, Math.round(100 * load), Math.round(60 * load), 1000 + Math.round(20000 * load), 24564,
                    Math.round(30 + 60 * load), 210 + 15 * Math.round(150 * load), 10501, load > 0.95 ? 4 : 0, 87, 92};
                for (int m = 0; m < SET.length; m++) {
                    b.set(SET[m], v[m]);
                }
                out.add(b.build());
            }
        }
        return out;
    }

    @Test
    void ingestADayOfEightGpusAndReduceItToAChart() throws Exception {
        List<List<GpuSample>> batches = new ArrayList<>();
        for (int s = 0; s < SECONDS; s += BATCH_SECONDS) {
            batches.add(batch(s));
        }
        long total = batches.stream().mapToLong(List::size).sum();
        Clock clock = Clock.fixed(Instant.ofEpochMilli(T0 + SECONDS * 1000L + 60_000), ZoneOffset.UTC);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("benchmark", "telemetry-history-24h-8-gpus");
        out.put("samples", total);
        out.put("metrics_per_sample", SET.length);
        out.put("batch_samples", BATCH_SECONDS * GPUS);
        out.put("points_per_series", POINTS);
        List<SeriesKey> keys = new ArrayList<>();
        for (int g = 0; g < GPUS; g++) {
            keys.add(new SeriesKey(gpu(g), GpuMetric.POWER_W));
        }
        Instant from = Instant.ofEpochMilli(T0);
        Instant to = Instant.ofEpochMilli(T0 + SECONDS * 1000L);
        try (Database db = Database.open(dir.resolve("gpuforge.db"))) {
            TelemetryStore store = new TelemetryStore(db, clock, TelemetryStore.Retention.defaults());
            long t0 = System.nanoTime();
            long c0 = cpu();
            for (List<GpuSample> b : batches) {
                store.append(b);
                store.flush();
            }
            long ingest = System.nanoTime() - t0;
            long ingestCpu = cpu() - c0;
            out.put("gpuforge_ingest_ms", ingest / 1_000_000);
            out.put("gpuforge_ingest_samples_per_s", Math.round(total * 1e9 / ingest));
            out.put("gpuforge_ingest_thread_cpu_ms", ingestCpu / 1_000_000);
            out.put("gpuforge_ingest_samples_per_cpu_s", Math.round(total * 1e9 / ingestCpu));
            out.put("gpuforge_db_bytes", Files.size(db.file()));
            TelemetryQueries q = new TelemetryQueries(store);
            List<Long> rawCpu = new ArrayList<>();
            List<Long> rawMs = windowMs(q, keys, from, to, rawCpu);
            out.put("gpuforge_window_from_raw_tenths_ms", rawMs);
            out.put("gpuforge_window_from_raw_median_ms", median(rawMs) / 10.0);
            out.put("gpuforge_window_from_raw_thread_cpu_median_ms", median(rawCpu) / 10.0);
            long r0 = System.nanoTime();
            int minutes = store.rollUpAndPrune(); // what the service does every minute, here for the whole day at once
            out.put("gpuforge_rollup_day_ms", (System.nanoTime() - r0) / 1_000_000);
            out.put("gpuforge_rollup_minutes", minutes);
            List<Long> cpu = new ArrayList<>();
            List<Long> ms = windowMs(q, keys, from, to, cpu);
            out.put("gpuforge_window_thread_cpu_median_ms", median(cpu) / 10.0);
            List<ReducedSeries> last = q.reduced(keys, from, to, POINTS);
            out.put("gpuforge_window_tenths_ms", ms);
            out.put("gpuforge_window_median_ms", median(ms) / 10.0);
            out.put("gpuforge_window_resolution", last.get(0).resolution().toString());
            assertThat(last).hasSize(GPUS).allSatisfy(r -> {
                assertThat(r.rawCount()).isEqualTo(SECONDS);
                assertThat(r.points().size()).isBetween(POINTS / 2, POINTS);
            });
        }
        try (Database db = Database.open(dir.resolve("naive.db"))) {
            db.with(c -> {
                try (Statement st = c.createStatement()) {
                    StringBuilder cols = new StringBuilder();
                    for (GpuMetric m : SET) {
                        cols.append(", ").append(m.json()).append(" REAL");
                    }
                    st.executeUpdate("CREATE TABLE naive_sample (gpu TEXT NOT NULL, t INTEGER NOT NULL" + cols + ")");
                    st.executeUpdate("CREATE INDEX naive_sample_gpu_t ON naive_sample (gpu, t)");
                }
                return null;
            });
            String insert = "INSERT INTO naive_sample VALUES (?, ?" + ", ?".repeat(SET.length) + ")";
            long t0 = System.nanoTime();
            long c0 = cpu();
            for (List<GpuSample> b : batches) {
                db.inTransaction(c -> {
                    try (PreparedStatement ps = c.prepareStatement(insert)) {
                        for (GpuSample s : b) {
                            ps.setString(1, s.gpu().toString());
                            ps.setLong(2, s.timeMillis());
                            for (int m = 0; m < SET.length; m++) {
                                ps.setDouble(3 + m, s.get(SET[m]).orElse(Double.NaN));
                            }
                            ps.addBatch();
                        }
                        ps.executeBatch();
                    }
                    return null;
                });
            }
            long ingest = System.nanoTime() - t0;
            long ingestCpu = cpu() - c0;
            out.put("naive_ingest_ms", ingest / 1_000_000);
            out.put("naive_ingest_samples_per_s", Math.round(total * 1e9 / ingest));
            out.put("naive_ingest_thread_cpu_ms", ingestCpu / 1_000_000);
            out.put("naive_ingest_samples_per_cpu_s", Math.round(total * 1e9 / ingestCpu));
            out.put("naive_db_bytes", Files.size(db.file()));
            List<Long> ms = new ArrayList<>();
            List<Long> cpu = new ArrayList<>();
            for (int i = 0; i < RUNS + 2; i++) {
                long r0 = System.nanoTime();
                long q0 = cpu();
                int points = 0;
                for (SeriesKey k : keys) {
                    points += naiveReduce(db, k, from.toEpochMilli(), to.toEpochMilli());
                }
                if (i >= 2) {
                    ms.add((System.nanoTime() - r0) / 100_000);
                    cpu.add((cpu() - q0) / 100_000);
                }
                assertThat(points).isEqualTo(GPUS * 2 * POINTS);
            }
            out.put("naive_window_tenths_ms", ms);
            out.put("naive_window_median_ms", median(ms) / 10.0);
            out.put("naive_window_thread_cpu_median_ms", median(cpu) / 10.0);
        }
        out.put("ingest_speedup", round((long) out.get("gpuforge_ingest_samples_per_s")
                / (double) (long) out.get("naive_ingest_samples_per_s")));
        out.put("window_speedup", round((double) out.get("naive_window_median_ms")
                / (double) out.get("gpuforge_window_median_ms")));
        out.put("load_average_1min", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        out.put("cores", Runtime.getRuntime().availableProcessors());
        out.put("target_ingest_samples_per_s", 200_000);
        out.put("target_window_ms", 100);
        Files.createDirectories(Path.of("target/bench"));
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(
                Path.of("target/bench/telemetry-history.json").toFile(), out);
    }

    /** CPU time of this thread (SQLite's work is done on it too), in nanoseconds. */
    private static long cpu() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    /** The window reduced to 1,000 points per GPU, timed (tenths of a ms; its thread CPU too) after two warm-ups. */
    private static List<Long> windowMs(TelemetryQueries q, List<SeriesKey> keys, Instant from, Instant to,
                                       List<Long> cpuOut) throws Exception {
        List<Long> ms = new ArrayList<>();
        for (int i = 0; i < RUNS + 2; i++) {
            long r0 = System.nanoTime();
            long c0 = cpu();
            List<ReducedSeries> r = q.reduced(keys, from, to, POINTS);
            if (i >= 2) {
                ms.add((System.nanoTime() - r0) / 100_000);
                cpuOut.add((cpu() - c0) / 100_000);
            }
            assertThat(r).hasSize(GPUS);
        }
        return ms;
    }

    /** Every row of the window read, then a minimum and a maximum per bucket; returns the points made. */
    private static int naiveReduce(Database db, SeriesKey k, long from, long to) throws Exception {
        return db.with(c -> {
            double[] min = new double[POINTS];
            double[] max = new double[POINTS];
            Arrays.fill(min, Double.NaN);
            Arrays.fill(max, Double.NaN);
            try (PreparedStatement ps = c.prepareStatement("SELECT t, " + k.metric().json()
                    + " FROM naive_sample WHERE gpu = ? AND t >= ? AND t < ? ORDER BY t")) {
                ps.setString(1, k.gpu().toString());
                ps.setLong(2, from);
                ps.setLong(3, to);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        int b = (int) ((rs.getLong(1) - from) * POINTS / (to - from));
                        double v = rs.getDouble(2);
                        min[b] = Double.isNaN(min[b]) ? v : Math.min(min[b], v);
                        max[b] = Double.isNaN(max[b]) ? v : Math.max(max[b], v);
                    }
                }
            }
            int n = 0;
            for (int b = 0; b < POINTS; b++) {
                n += Double.isNaN(min[b]) ? 0 : 2;
            }
            return n;
        });
    }

    private static long median(List<Long> v) {
        List<Long> s = new ArrayList<>(v);
        s.sort(Long::compare);
        return s.get(s.size() / 2);
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
