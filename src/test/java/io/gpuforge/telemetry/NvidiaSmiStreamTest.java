package io.gpuforge.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceStatus;
import io.gpuforge.testing.SharedFixtures;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The nvidia-smi stream against the recorded captures, through a fake nvidia-smi run as a real process. */
class NvidiaSmiStreamTest {

    @TempDir
    Path dir;

    private final TelemetryThreads threads = new TelemetryThreads();
    private final List<GpuSample> samples = new CopyOnWriteArrayList<>();
    private final List<SourceStatus> statuses = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        threads.close();
    }

    private NvidiaSmiStream stream(Path fake) {
        return new NvidiaSmiStream(new LocalLineStreams(threads.pool()), "local", fake.toString(), Optional.of("pve1"),
                Clock.systemUTC());
    }

    private Sampler.Registration watch(NvidiaSmiStream s) {
        Sampler sampler = new Sampler(threads, Clock.systemUTC());
        return sampler.add(s, Duration.ofMillis(200), new SampleSink() {
            @Override
            public void samples(List<GpuSample> batch) {
                samples.addAll(batch);
            }

            @Override
            public void status(SourceStatus st) {
                statuses.add(st);
            }
        });
    }

    /** Waits for the stream's state a step expects; fails when it does not come (it used to go on silently). */
    private void await(BooleanSupplier done) throws InterruptedException {
        io.gpuforge.testing.Eventually.until("the nvidia-smi stream's awaited state (samples " + samples.size()
                + ", statuses " + statuses.size() + ")", Duration.ofSeconds(30), done);
    }

    private GpuSample firstReading() {
        return samples.stream().filter(s -> !s.isGap()).findFirst().orElseThrow();
    }

    private Path capture(String name) throws Exception {
        SharedFixtures.read("nvidia-smi/" + name);
        return SharedFixtures.dir().resolve("nvidia-smi/" + name).toAbsolutePath();
    }

    @Test
    void rtx4080SuperUnderLoadFromOneLongLivedProcess() throws Exception {
        NvidiaSmiStream s = stream(FakeNvidiaSmi.write(dir, capture("02-rtx4080super-linux-595.71.05.query-gpu.load.csv")));
        assertThat(s.command(200)).contains("--format=csv,noheader,nounits -lms 200");
        try (Sampler.Registration ignored = watch(s)) {
            await(() -> samples.size() >= 5);
        }
        assertThat(samples).hasSizeGreaterThanOrEqualTo(5);
        assertThat(FakeNvidiaSmi.starts(dir)).as("one process for every sample, never one per sample").isEqualTo(1);
        GpuSample g = firstReading();
        assertThat(g.gpu().device()).isEqualTo("GPU-00000000-0000-0000-0000-000000000000");
        assertThat(g.name()).isEqualTo("NVIDIA GeForce RTX 4080 SUPER");
        assertThat(g.get(GpuMetric.TEMPERATURE_C)).hasValue(46);
        assertThat(g.get(GpuMetric.POWER_W).getAsDouble()).isCloseTo(84.24, within(1e-9));
        assertThat(g.get(GpuMetric.POWER_LIMIT_W)).hasValue(320);
        assertThat(g.get(GpuMetric.POWER_MIN_LIMIT_W)).hasValue(150);
        assertThat(g.get(GpuMetric.POWER_MAX_LIMIT_W)).hasValue(400);
        assertThat(g.get(GpuMetric.UTILIZATION_PCT)).hasValue(7);
        assertThat(g.get(GpuMetric.MEMORY_USED_MIB)).hasValue(1474);
        assertThat(g.get(GpuMetric.MEMORY_TOTAL_MIB)).hasValue(16376);
        assertThat(g.get(GpuMetric.SM_CLOCK_MHZ)).hasValue(2805);
        assertThat(g.get(GpuMetric.THROTTLE_REASONS)).hasValue(0);
        assertThat(g.get(GpuMetric.MEMORY_TEMPERATURE_C)).as("N/A is absent, not 0").isEmpty();
        assertThat(g.node()).hasValue("pve1");
    }

    @Test
    void h100WithoutAFanReadsNoFanAndItsMemoryTemperature() throws Exception {
        NvidiaSmiStream s = stream(FakeNvidiaSmi.write(dir, capture("04-h100-80gb-hbm3-linux-590.48.01.query-gpu.load.csv")));
        try (Sampler.Registration ignored = watch(s)) {
            await(() -> !samples.isEmpty());
        }
        GpuSample g = firstReading();
        assertThat(g.get(GpuMetric.FAN_PCT)).as("[N/A]").isEmpty();
        assertThat(g.get(GpuMetric.MEMORY_TEMPERATURE_C)).hasValue(54);
        assertThat(g.get(GpuMetric.POWER_W).getAsDouble()).isCloseTo(631.95, within(1e-9));
        assertThat(g.get(GpuMetric.POWER_LIMIT_W)).hasValue(700);
        assertThat(g.get(GpuMetric.UTILIZATION_PCT)).hasValue(100);
        assertThat(g.gpu().device()).startsWith("GPU-");
    }

    @Test
    void anOlderDriverThatKnowsFewerFieldsIsAskedAgainWithoutThem() throws Exception {
        NvidiaSmiStream s = stream(FakeNvidiaSmi.write(dir, capture("07-teslap100.query-gpu.nounits.csv")));
        try (Sampler.Registration ignored = watch(s)) {
            await(() -> samples.stream().anyMatch(x -> !x.isGap()));
        }
        GpuSample g = firstReading();
        assertThat(g.name()).isEqualTo("Tesla P100-PCIE-16GB");
        assertThat(g.gpu().device()).isEqualTo("GPU-ef1b2c9b-38d8-2090-2bd1-f567a3eb42a6");
        assertThat(g.get(GpuMetric.TEMPERATURE_C)).hasValue(37);
        assertThat(g.get(GpuMetric.POWER_W).getAsDouble()).isCloseTo(28.16, within(1e-9));
        assertThat(g.get(GpuMetric.MEMORY_CLOCK_MHZ)).hasValue(715);
        assertThat(g.get(GpuMetric.FAN_PCT)).isEmpty();
        assertThat(g.get(GpuMetric.POWER_LIMIT_W)).as("a field this driver refused").isEmpty();
        assertThat(s.command(200)).doesNotContain("enforced.power.limit").doesNotContain("clocks_event_reasons");
    }

    @Test
    void aProcessThatDiesMidLineLeavesAGapAndIsStartedAgain() throws Exception {
        Path fake = FakeNvidiaSmi.dyingMidLine(dir, "0, NVIDIA GeForce RTX 4090, 61, 287.45, GPU-abc");
        NvidiaSmiStream s = stream(fake);
        try (Sampler.Registration ignored = watch(s)) {
            await(() -> FakeNvidiaSmi.starts(dir) >= 2 && samples.stream().filter(GpuSample::isGap).count() >= 1);
        }
        List<GpuSample> readings = samples.stream().filter(x -> !x.isGap()).toList();
        assertThat(readings).isNotEmpty().allSatisfy(x -> {
            assertThat(x.name()).isEqualTo("NVIDIA GeForce RTX 4090");
            assertThat(x.get(GpuMetric.TEMPERATURE_C)).hasValue(61);
        });
        assertThat(samples).as("the cut line is dropped, and the gap is marked").anyMatch(GpuSample::isGap);
        assertThat(statuses).anyMatch(st -> st.state() == SourceStatus.State.FAILING
                && st.problem().orElse("").contains("nvidia-smi exited") && st.retryAt().isPresent());
        assertThat(FakeNvidiaSmi.starts(dir)).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aMissingNvidiaSmiSaysWhatToInstall() throws Exception {
        NvidiaSmiStream s = stream(dir.resolve("no-such-nvidia-smi"));
        try (Sampler.Registration ignored = watch(s)) {
            await(() -> statuses.stream().anyMatch(st -> st.state() == SourceStatus.State.FAILING));
        }
        assertThat(statuses).anyMatch(st -> st.problem().orElse("").contains("nvidia-smi is not installed"));
    }
}
