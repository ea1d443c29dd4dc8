package io.gpuforge.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gpuforge.telemetry.TelemetryThreads;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sampler's cost: 16 hosts × 8 GPUs at 1 Hz for 60 s (after 15 s of warm-up), one long-lived nvidia-smi stream
 * per host, every sample written to SQLite once a second, as a share of one core of this JVM's CPU time
 * (OperatingSystemMXBean; target under 2 %), with the idle JVM measured before and subtracted; the telemetry threads'
 * own CPU (ThreadMXBean); and the naive way in the same run: a new nvidia-smi process per host and tick, for 20 s.
 * Writes target/bench/telemetry-sampler.json.
 */
@Tag("bench")
class TelemetrySamplerBench {

    private static final int HOSTS = 16;
    private static final int GPUS = 8;
    private static final Duration INTERVAL = Duration.ofSeconds(1);

    @TempDir
    Path dir;

    @Test
    void sixteenHostsOfEightGpusAtOneHertz() throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("benchmark", "telemetry-sampler-16-hosts-8-gpus-1hz");
        out.put("hosts", HOSTS);
        out.put("gpus_per_host", GPUS);
        out.put("interval_ms", INTERVAL.toMillis());
        try (BenchPipeline pipe = new BenchPipeline(dir.resolve("idle.db"))) {
            Thread.sleep(2000);
            long j0 = BenchNvidiaSmi.processCpuNanos();
            long t0 = System.nanoTime();
            Thread.sleep(10_000);
            out.put("idle_jvm_cpu_pct_of_core", pct(BenchNvidiaSmi.processCpuNanos() - j0, System.nanoTime() - t0));
        }
        Map<String, Object> stream = run(true, Duration.ofSeconds(60));
        Map<String, Object> naive = run(false, Duration.ofSeconds(20));
        out.put("stream", stream);
        out.put("process_per_sample", naive);
        double idle = (double) out.get("idle_jvm_cpu_pct_of_core");
        double s = (double) stream.get("jvm_cpu_pct_of_core");
        out.put("stream_jvm_cpu_pct_of_core_minus_idle", round(s - idle));
        out.put("target_pct_of_core", 2.0);
        out.put("ratio_total_cpu_process_per_sample_over_stream", round(
                (double) naive.get("total_cpu_pct_of_core") / (double) stream.get("total_cpu_pct_of_core")));
        Files.createDirectories(Path.of("target/bench"));
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(
                Path.of("target/bench/telemetry-sampler.json").toFile(), out);
        assertThat((int) stream.get("processes_started")).isEqualTo(HOSTS);
        assertThat((long) stream.get("samples")).isGreaterThan(HOSTS * GPUS * 50L);
    }

    private Map<String, Object> run(boolean asStream, Duration measured) throws Exception {
        Path base = dir.resolve(asStream ? "stream" : "per-sample");
        Path[] fakes = new Path[HOSTS];
        for (int h = 0; h < HOSTS; h++) {
            fakes[h] = BenchNvidiaSmi.write(base.resolve("host" + h), h, GPUS);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        try (BenchPipeline pipe = new BenchPipeline(base.resolve("gpuforge.db"))) {
            for (int h = 0; h < HOSTS; h++) {
                String host = "ssh:root@pve" + h;
                if (asStream) {
                    pipe.stream(host, fakes[h], INTERVAL);
                } else {
                    pipe.processPerSample(host, fakes[h], INTERVAL);
                }
            }
            Thread.sleep(15_000); // warm-up: streams started, code compiled
            long s0 = pipe.samples.get();
            long j0 = BenchNvidiaSmi.processCpuNanos();
            long c0 = BenchNvidiaSmi.childrenCpuNanos();
            long th0 = telemetryThreadsCpu();
            long t0 = System.nanoTime();
            Thread.sleep(measured.toMillis());
            long wall = System.nanoTime() - t0;
            long jvm = BenchNvidiaSmi.processCpuNanos() - j0;
            long children = BenchNvidiaSmi.childrenCpuNanos() - c0;
            long threads = telemetryThreadsCpu() - th0;
            long samples = pipe.samples.get() - s0;
            m.put("measured_s", measured.toSeconds());
            m.put("samples", samples);
            m.put("samples_per_s", round(samples * 1e9 / wall));
            m.put("jvm_cpu_ms", jvm / 1_000_000);
            m.put("jvm_cpu_pct_of_core", pct(jvm, wall));
            m.put("telemetry_threads_cpu_pct_of_core", pct(threads, wall));
            m.put("children_cpu_pct_of_core", pct(children, wall));
            m.put("total_cpu_pct_of_core", pct(jvm + children, wall));
            m.put("jvm_cpu_us_per_sample", round(jvm / 1000.0 / Math.max(1, samples)));
            m.put("store_failures", pipe.failures.get());
        }
        int started = 0;
        for (int h = 0; h < HOSTS; h++) {
            started += BenchNvidiaSmi.starts(base.resolve("host" + h));
        }
        m.put("processes_started", started);
        return m;
    }

    /** CPU of the telemetry threads alive now (pool threads are reused and kept while they have work). */
    private static long telemetryThreadsCpu() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (TelemetryThreads.isTelemetryThread(t)) {
                long c = mx.getThreadCpuTime(t.getId());
                sum += Math.max(0, c);
            }
        }
        return sum;
    }

    private static double pct(long cpu, long wall) {
        return round(100.0 * cpu / wall);
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
