package io.gpuforge.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One long-lived {@code nvidia-smi -lms} stream against a new {@code nvidia-smi} process per reading, for one host
 * with 8 GPUs at the fastest interval (0.2 s) over 30 s each (after 10 s of each to warm up), through the same sampler and store: CPU per GPU sample,
 * this JVM's and that of the processes it started, and processes started. Writes target/bench/telemetry-stream.json.
 * The stand-in nvidia-smi costs a fraction of the real one's start (NVML and driver start-up), so the per-process
 * figure here is a lower bound.
 */
@Tag("bench")
class TelemetryStreamVsProcessBench {

    private static final int GPUS = 8;
    private static final Duration INTERVAL = Duration.ofMillis(200);
    private static final Duration RUN = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void oneStreamVersusAProcessPerSample() throws Exception {
        measure(true, Duration.ofSeconds(10)); // warm-up: the code of both ways compiled before either is measured
        measure(false, Duration.ofSeconds(10));
        Map<String, Object> stream = measure(true);
        Map<String, Object> perSample = measure(false);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("benchmark", "nvidia-smi-stream-vs-process-per-sample");
        out.put("gpus", GPUS);
        out.put("interval_ms", INTERVAL.toMillis());
        out.put("seconds_each", RUN.toSeconds());
        out.put("stream", stream);
        out.put("process_per_sample", perSample);
        double s = (double) stream.get("total_cpu_us_per_sample");
        double p = (double) perSample.get("total_cpu_us_per_sample");
        out.put("cpu_per_sample_ratio_process_per_sample_over_stream", round(p / s));
        out.put("jvm_cpu_per_sample_ratio", round((double) perSample.get("jvm_cpu_us_per_sample")
                / (double) stream.get("jvm_cpu_us_per_sample")));
        Files.createDirectories(Path.of("target/bench"));
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(
                Path.of("target/bench/telemetry-stream.json").toFile(), out);
        assertThat((int) stream.get("processes_started")).isEqualTo(1);
        assertThat((long) stream.get("samples")).isGreaterThan(0);
        assertThat((long) perSample.get("samples")).isGreaterThan(0);
    }

    private Map<String, Object> measure(boolean asStream) throws Exception {
        return measure(asStream, RUN);
    }

    private Map<String, Object> measure(boolean asStream, Duration run) throws Exception {
        Path host = Files.createTempDirectory(dir, asStream ? "stream" : "per-sample");
        Path fake = BenchNvidiaSmi.write(host, 0, GPUS);
        long samples;
        long jvm;
        long children;
        long failures;
        long wall;
        try (BenchPipeline pipe = new BenchPipeline(host.resolve("gpuforge.db"))) {
            long j0 = BenchNvidiaSmi.processCpuNanos();
            long c0 = BenchNvidiaSmi.childrenCpuNanos();
            long t0 = System.nanoTime();
            if (asStream) {
                pipe.stream("ssh:root@pve0", fake, INTERVAL);
            } else {
                pipe.processPerSample("ssh:root@pve0", fake, INTERVAL);
            }
            Thread.sleep(run.toMillis());
            pipe.stopSources();
            samples = pipe.samples.get();
            Thread.sleep(1000); // the stopped process is reaped: its CPU counts
            wall = System.nanoTime() - t0;
            jvm = BenchNvidiaSmi.processCpuNanos() - j0;
            children = BenchNvidiaSmi.childrenCpuNanos() - c0;
            failures = pipe.failures.get();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("samples", samples);
        m.put("processes_started", BenchNvidiaSmi.starts(host));
        m.put("wall_ms", wall / 1_000_000);
        m.put("jvm_cpu_ms", jvm / 1_000_000);
        m.put("children_cpu_ms", children / 1_000_000);
        m.put("jvm_cpu_us_per_sample", round(jvm / 1000.0 / samples));
        m.put("children_cpu_us_per_sample", round(children / 1000.0 / samples));
        m.put("total_cpu_us_per_sample", round((jvm + children) / 1000.0 / samples));
        m.put("store_failures", failures);
        return m;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
