package io.gpuforge.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gpuforge.domain.telemetry.EnergyReport;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.ReducedSeries;
import io.gpuforge.domain.telemetry.SeriesKey;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.domain.telemetry.Tariff;
import io.gpuforge.testing.MovableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Telemetry in a real SQLite file: batched writes, reduced windows, rollups, retention, energy with gaps. */
class TelemetryStoreTest {

    private static final GpuId GPU = new GpuId("ssh:root@pve1", "GPU-1234");
    private static final long T0 = Instant.parse("2026-06-01T00:00:00Z").toEpochMilli();

    @TempDir
    Path dir;

    private Database db;
    private MovableClock clock;
    private TelemetryStore store;
    private TelemetryQueries queries;

    @BeforeEach
    void open() throws Exception {
        db = Database.open(dir.resolve("gpuforge.db"));
        clock = new MovableClock(Instant.ofEpochMilli(T0 + Duration.ofHours(4).toMillis()));
        store = new TelemetryStore(db, clock, TelemetryStore.Retention.defaults());
        queries = new TelemetryQueries(store);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static GpuSample sample(long t, double power, double temp) {
        return GpuSample.builder(GPU, t, SourceKind.NVIDIA_SMI).name("NVIDIA GeForce RTX 3090").node(Optional.of("pve1"))
                .vm(Optional.of("VM 104")).intervalMillis(1000).set(GpuMetric.POWER_W, power)
                .set(GpuMetric.TEMPERATURE_C, temp).build();
    }

    /** Seconds [from, to) of 1 Hz samples at a constant power. */
    private static List<GpuSample> run(long fromS, long toS, double power) {
        List<GpuSample> out = new ArrayList<>();
        for (long s = fromS; s < toS; s++) {
            out.add(sample(T0 + s * 1000, power, 50 + (s % 7)));
        }
        return out;
    }

    @Test
    void aReducedWindowKeepsTheSpikeAndTheDipAndHasAtMostTheAskedPoints() throws Exception {
        List<GpuSample> all = run(0, 3 * 3600, 200);
        all.set(5000, sample(T0 + 5000_000, 449.5, 88));
        all.set(9000, sample(T0 + 9000_000, 21.25, 30));
        store.append(all);
        assertThat(store.flush()).isEqualTo(3 * 3600);
        ReducedSeries r = queries.reduced(List.of(new SeriesKey(GPU, GpuMetric.POWER_W)), Instant.ofEpochMilli(T0),
                Instant.ofEpochMilli(T0 + 3 * 3600_000), 100).get(0);
        assertThat(r.points()).hasSizeLessThanOrEqualTo(100).hasSizeGreaterThan(10);
        assertThat(r.max()).isCloseTo(449.5, within(0.01));
        assertThat(r.min()).isCloseTo(21.25, within(0.01));
        assertThat(r.rawCount()).isEqualTo(3 * 3600);
        assertThat(r.gaps()).isEmpty();
        assertThat(r.resolution()).isEqualTo(ReducedSeries.Resolution.RAW);
    }

    @Test
    void aWindowWiderThanTheRawDetailIsReadFromTheMinuteRollupsWithItsSpikeDipAndGap() throws Exception {
        List<GpuSample> all = new ArrayList<>(run(0, 3 * 3600, 200));
        all.set(5000, sample(T0 + 5000_000, 449.5, 88));
        all.set(9000, sample(T0 + 9000_000, 21.25, 30));
        all.subList(6000, 6300).clear(); // five minutes without readings
        store.append(all);
        store.flush();
        store.rollUpAndPrune();
        // 3 h at 100 points: a bucket of 4 points is 7 minutes wide, a day's chart alike; the raw samples are kept
        ReducedSeries r = queries.reduced(List.of(new SeriesKey(GPU, GpuMetric.POWER_W)), Instant.ofEpochMilli(T0),
                Instant.ofEpochMilli(T0 + 3 * 3600_000), 100).get(0);
        assertThat(r.resolution()).isEqualTo(ReducedSeries.Resolution.MINUTE);
        assertThat(r.points()).hasSizeLessThanOrEqualTo(100).hasSizeGreaterThan(10);
        assertThat(r.max()).isCloseTo(449.5, within(0.01));
        assertThat(r.min()).isCloseTo(21.25, within(0.01));
        assertThat(r.rawCount()).as("the samples the window stands for").isEqualTo(3 * 3600 - 300);
        assertThat(r.gaps()).hasSize(1);
        assertThat(r.gaps().get(0).fromMillis()).isBetween(T0 + 5940_000, T0 + 6000_000);
        assertThat(r.gaps().get(0).toMillis()).isBetween(T0 + 6300_000, T0 + 6360_000);
        assertThat(r.points()).extracting(ReducedSeries.Point::timeMillis).isSorted();
    }

    @Test
    void aWindowStartingInTheMiddleOfAMinuteKeepsThatMinutesReadingsWhenReadFromRollups() throws Exception {
        List<GpuSample> all = new ArrayList<>(run(0, 3 * 3600, 200));
        all.set(10, sample(T0 + 10_000, 333, 70));
        store.append(all);
        store.flush();
        store.rollUpAndPrune();
        ReducedSeries r = queries.reduced(List.of(new SeriesKey(GPU, GpuMetric.POWER_W)), Instant.ofEpochMilli(T0 + 5_000),
                Instant.ofEpochMilli(T0 + 3 * 3600_000), 100).get(0);
        assertThat(r.resolution()).isEqualTo(ReducedSeries.Resolution.MINUTE);
        assertThat(r.max()).as("the spike in the part minute before the first whole one").isCloseTo(333, within(0.01));
        assertThat(r.rawCount()).isEqualTo(3 * 3600 - 5);
    }

    @Test
    void aMinuteOfReadingsIsStoredCompactlyAndChunksOfTheFirstFormatAreStillRead() throws Exception {
        List<GpuSample> minute = new ArrayList<>();
        for (int s = 0; s < 60; s++) {
            minute.add(GpuSample.builder(GPU, T0 + s * 1000L + (s % 3), SourceKind.NVIDIA_SMI).intervalMillis(1000)
                    .set(GpuMetric.POWER_W, 200 + s).set(GpuMetric.TEMPERATURE_C, 50 + s / 20)
                    .set(GpuMetric.UTILIZATION_PCT, s % 2 == 0 ? 99 : 100).set(GpuMetric.POWER_LIMIT_W, 350)
                    .set(GpuMetric.POWER_MIN_LIMIT_W, 100).set(GpuMetric.POWER_MAX_LIMIT_W, 400)
                    .set(GpuMetric.MEMORY_TOTAL_MIB, 24576).set(GpuMetric.MEMORY_USED_MIB, 20000)
                    .set(GpuMetric.SM_CLOCK_MHZ, 1950).set(GpuMetric.MEMORY_CLOCK_MHZ, 9751)
                    .set(GpuMetric.FAN_PCT, 70).set(GpuMetric.THROTTLE_REASONS, 0).build());
        }
        minute.add(GpuSample.gap(GPU, T0 + 59_500, SourceKind.NVIDIA_SMI, "x", 1000));
        byte[] data = SampleCodec.encode(T0, minute);
        assertThat(data.length).as("12 metrics, 9 of them the same as a second before: a minute stays under the"
                + " kilobyte SQLite keeps in its row").isLessThan(61 * 16);
        SampleCodec.Column power = SampleCodec.decode(T0, data, GpuMetric.POWER_W);
        SampleCodec.Column limit = SampleCodec.decode(T0, data, GpuMetric.POWER_LIMIT_W);
        SampleCodec.Column fan = SampleCodec.decode(T0, data, GpuMetric.FAN_PCT);
        SampleCodec.Column memTemp = SampleCodec.decode(T0, data, GpuMetric.MEMORY_TEMPERATURE_C);
        for (int s = 0; s < 60; s++) {
            assertThat(power.times()[s]).isEqualTo(T0 + s * 1000L + (s % 3));
            assertThat(power.values()[s]).isEqualTo(200 + s);
            assertThat(limit.values()[s]).isEqualTo(350);
            assertThat(fan.values()[s]).isEqualTo(70);
            assertThat(memTemp.values()[s]).as("absent stays absent").isNaN();
            assertThat(power.intervals()[s]).isEqualTo(1000);
        }
        assertThat(power.gap()[60]).isTrue();
        long[] t = new long[61];
        int[] iv = new int[61];
        double[][] rows = SampleCodec.decodeAll(T0, data, t, iv);
        assertThat(rows[59][GpuMetric.UTILIZATION_PCT.ordinal()]).isEqualTo(100);
        assertThat(rows[58][GpuMetric.MEMORY_CLOCK_MHZ.ordinal()]).isEqualTo(9751);
        assertThat(iv[60]).isEqualTo(1000);

        // format 1, as the first GPUForge wrote it: time, interval, mask, then every present value
        byte[] v1 = {1, 2, /* t */ 0, /* iv 1000 */ (byte) 0xE8, 7, /* mask: power */ 4, 0x43, 0x48, 0, 0,
            /* t 1000 */ (byte) 0xE8, 7, (byte) 0xE8, 7, 4, 0x43, 0x49, 0, 0};
        SampleCodec.Column old = SampleCodec.decode(T0, v1, GpuMetric.POWER_W);
        assertThat(old.values()).containsExactly(200.0, 201.0);
        assertThat(old.times()).containsExactly(T0, T0 + 1000);
        assertThat(old.intervals()).containsExactly(1000, 1000);
    }

    @Test
    void gapsStayGapsInTheChartAndInTheEnergy() throws Exception {
        store.append(run(0, 600, 100));
        store.append(List.of(GpuSample.gap(GPU, T0 + 600_000, SourceKind.NVIDIA_SMI, "x", 1000)));
        store.append(run(900, 1500, 100)); // the source came back after 5 minutes
        store.flush();
        Instant from = Instant.ofEpochMilli(T0);
        Instant to = Instant.ofEpochMilli(T0 + 1500_000);
        ReducedSeries r = queries.reduced(List.of(new SeriesKey(GPU, GpuMetric.POWER_W)), from, to, 400).get(0);
        assertThat(r.gaps()).hasSize(1);
        assertThat(r.gaps().get(0).fromMillis()).isEqualTo(T0 + 599_000);
        assertThat(r.gaps().get(0).toMillis()).isEqualTo(T0 + 900_000);
        EnergyReport e = queries.energy(from, to, Optional.of(Tariff.flat("EUR", 0.30)), x -> true);
        EnergyReport.Line gpu = e.gpus().get(0);
        // 100 W over the two measured stretches (599 s + 599 s), nothing across the gap
        assertThat(gpu.joules()).isCloseTo(100.0 * 1198, within(1e-6));
        assertThat(gpu.covered()).isEqualTo(Duration.ofSeconds(1198));
        assertThat(gpu.gaps()).isEqualTo(Duration.ofSeconds(1500 - 1198));
        assertThat(gpu.cost().orElseThrow()).isCloseTo(100.0 * 1198 / 3.6e6 * 0.30, within(1e-9));
        assertThat(e.vms()).extracting(EnergyReport.Line::key).containsExactly("VM 104");
        assertThat(e.nodes()).extracting(EnergyReport.Line::key).containsExactly("pve1");
        assertThat(e.total().joules()).isCloseTo(gpu.joules(), within(1e-6));
    }

    @Test
    void aLongSilenceWithoutAMarkerIsAGapToo() throws Exception {
        store.append(run(0, 60, 50));
        store.append(run(120, 180, 50));
        store.flush();
        EnergyReport e = queries.energy(Instant.ofEpochMilli(T0), Instant.ofEpochMilli(T0 + 180_000), Optional.empty(),
                x -> true);
        assertThat(e.gpus().get(0).joules()).isCloseTo(50.0 * 118, within(1e-6));
    }

    @Test
    void rollupsKeepMinMaxAndEnergyAfterTheRawSamplesArePruned() throws Exception {
        List<GpuSample> all = run(0, 2 * 3600, 300);
        all.set(4000, sample(T0 + 4000_000, 512, 90));
        store.append(all);
        store.flush();
        Instant from = Instant.ofEpochMilli(T0);
        Instant to = Instant.ofEpochMilli(T0 + 2 * 3600_000);
        double rawEnergy = queries.energy(from, to, Optional.empty(), x -> true).total().joules();
        assertThat(store.rollUpAndPrune()).isEqualTo(120);
        clock.set(Instant.ofEpochMilli(T0 + Duration.ofHours(50).toMillis()));
        store.rollUpAndPrune();
        assertThat(store.chunks().count()).as("raw samples past 48 h are gone").isZero();
        assertThat(store.rollups().count()).isEqualTo(120);
        ReducedSeries r = queries.reduced(List.of(new SeriesKey(GPU, GpuMetric.POWER_W)), from, to, 100).get(0);
        assertThat(r.resolution()).isEqualTo(ReducedSeries.Resolution.MINUTE);
        assertThat(r.max()).isCloseTo(512, within(0.01));
        assertThat(r.min()).isCloseTo(300, within(0.01));
        double rolledEnergy = queries.energy(from, to, Optional.empty(), x -> true).total().joules();
        assertThat(rolledEnergy).isCloseTo(rawEnergy, within(rawEnergy * 1e-4));
        clock.set(Instant.ofEpochMilli(T0 + Duration.ofDays(91).toMillis()));
        store.rollUpAndPrune();
        assertThat(store.rollups().count()).as("rollups past 90 days are gone").isZero();
    }

    @Test
    void aLateSampleIsMergedIntoItsMinuteInTimeOrder() throws Exception {
        store.append(run(0, 120, 10));
        store.flush();
        store.append(List.of(sample(T0 + 30_500, 999, 99)));
        store.flush();
        ReducedSeries r = queries.reduced(List.of(new SeriesKey(GPU, GpuMetric.POWER_W)), Instant.ofEpochMilli(T0),
                Instant.ofEpochMilli(T0 + 120_000), 1000).get(0);
        assertThat(r.rawCount()).isEqualTo(121);
        assertThat(r.max()).isEqualTo(999);
        List<Long> times = r.points().stream().map(ReducedSeries.Point::timeMillis).toList();
        assertThat(times).isSorted();
    }

    @Test
    void absentReadingsAreNeverStoredAsZero() throws Exception {
        store.append(List.of(GpuSample.builder(GPU, T0, SourceKind.HWMON).set(GpuMetric.TEMPERATURE_C, 40).build(),
                GpuSample.builder(GPU, T0 + 1000, SourceKind.HWMON).set(GpuMetric.TEMPERATURE_C, 41).build()));
        store.flush();
        ReducedSeries fan = queries.reduced(List.of(new SeriesKey(GPU, GpuMetric.FAN_PCT)), Instant.ofEpochMilli(T0),
                Instant.ofEpochMilli(T0 + 60_000), 100).get(0);
        assertThat(fan.points()).isEmpty();
    }
}
