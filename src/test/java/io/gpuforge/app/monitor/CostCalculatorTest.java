package io.gpuforge.app.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gpuforge.domain.telemetry.CostProfile;
import io.gpuforge.domain.telemetry.CostReport;
import io.gpuforge.domain.telemetry.EnergyReport;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.domain.telemetry.Tariff;
import io.gpuforge.store.Database;
import io.gpuforge.store.TelemetryQueries;
import io.gpuforge.store.TelemetryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cost of a known synthetic series, stored in a real SQLite file and read back through the energy query, equals
 * the figures computed by hand.
 */
class CostCalculatorTest {

    private static final GpuId GPU = new GpuId("ssh:root@pve1", "GPU-3090");
    private static final long T0 = Instant.parse("2026-06-01T07:00:00Z").toEpochMilli();

    @TempDir
    Path dir;

    private Database db;
    private TelemetryStore store;
    private TelemetryQueries queries;

    @BeforeEach
    void open() throws Exception {
        db = Database.open(dir.resolve("gpuforge.db"));
        store = new TelemetryStore(db, Clock.fixed(Instant.ofEpochMilli(T0 + 5 * 3_600_000L), ZoneOffset.UTC),
                TelemetryStore.Retention.defaults());
        queries = new TelemetryQueries(store);
        // 300 W at 1 Hz from 07:00:00 to 09:00:00 (7,201 readings, two hours measured)
        List<GpuSample> run = new ArrayList<>();
        for (long s = 0; s <= 7200; s++) {
            run.add(GpuSample.builder(GPU, T0 + s * 1000, SourceKind.NVIDIA_SMI).name("NVIDIA GeForce RTX 3090")
                    .node(Optional.of("pve1")).vm(Optional.of("train-01")).intervalMillis(1000)
                    .set(GpuMetric.POWER_W, 300).build());
        }
        store.append(run);
        store.flush();
    }

    @AfterEach
    void close() {
        db.close();
    }

    private CostReport report(CostProfile p, long fromMillis, long toMillis) throws Exception {
        EnergyReport e = queries.energy(Instant.ofEpochMilli(fromMillis), Instant.ofEpochMilli(toMillis),
                Optional.of(p.tariff()), r -> true);
        return CostCalculator.of(e, p);
    }

    @Test
    void aFlatTariffAServerOverThreeYearsAndACloudPrice() throws Exception {
        // ¥15,000 over 3 years (1,095 days) is ¥13.70 a day; the window is 4 h, 2 h of it measured
        CostProfile p = new CostProfile(Tariff.flat("CNY", 0.60), 15_000, 1, 1095, OptionalDouble.of(8.0));
        assertThat(p.hardwarePerGpuDay()).isCloseTo(13.70, within(0.005));
        CostReport r = report(p, T0 - 3_600_000, T0 + 3 * 3_600_000);
        CostReport.Line gpu = r.gpus().get(0);
        assertThat(gpu.kwh()).isCloseTo(0.6, within(1e-9)); // 0.3 kW × 2 h
        assertThat(gpu.energyCost()).isCloseTo(0.36, within(1e-9)); // 0.6 kWh × ¥0.60
        assertThat(gpu.hardwareCost()).isCloseTo(15_000.0 / 1095 * 4 / 24, within(1e-9)); // ¥2.2831
        assertThat(gpu.totalCost()).isCloseTo(2.643105, within(1e-6));
        assertThat(gpu.gpuHours()).isCloseTo(2.0, within(1e-9));
        assertThat(gpu.windowGpuHours()).isCloseTo(4.0, within(1e-9));
        assertThat(gpu.costPerGpuHour().getAsDouble()).isCloseTo(1.3215525, within(1e-6));
        assertThat(gpu.cloudCost().getAsDouble()).isCloseTo(16.0, within(1e-9)); // 2 GPU-hours × ¥8
        assertThat(gpu.savings().getAsDouble()).isCloseTo(13.356895, within(1e-6));
        assertThat(r.vms()).extracting(CostReport.Line::key).containsExactly("train-01");
        assertThat(r.vms().get(0).totalCost()).isCloseTo(gpu.totalCost(), within(1e-9));
        assertThat(r.nodes()).extracting(CostReport.Line::key).containsExactly("pve1");
        assertThat(r.total().totalCost()).isCloseTo(gpu.totalCost(), within(1e-9));
        assertThat(r.currency()).isEqualTo("CNY");
    }

    @Test
    void peakAndOffPeakHoursArePricedApart() throws Exception {
        // 07:00–08:00 off-peak at 0.30, 08:00–09:00 peak at 1.00: 0.3 kWh each
        Tariff t = new Tariff("EUR", 0.30, Optional.of(new Tariff.Peak(LocalTime.of(8, 0), LocalTime.of(20, 0), 1.00)),
                ZoneOffset.UTC);
        CostReport r = report(CostProfile.energyOnly(t), T0, T0 + 3 * 3_600_000);
        assertThat(r.total().energyCost()).isCloseTo(0.3 * 0.30 + 0.3 * 1.00, within(1e-9));
        assertThat(r.total().hardwareCost()).isZero();
        assertThat(r.total().cloudCost()).isEmpty();
        assertThat(r.total().savings()).isEmpty();
    }

    @Test
    void theCsvHasOneRowPerGpuVmNodeAndTheTotalWithTheHandComputedFigures() throws Exception {
        CostProfile p = new CostProfile(Tariff.flat("CNY", 0.60), 15_000, 1, 1095, OptionalDouble.of(8.0));
        String csv = CostCalculator.csv(report(p, T0 - 3_600_000, T0 + 3 * 3_600_000));
        List<String> lines = csv.lines().toList();
        assertThat(lines.get(0)).startsWith("scope,key,label,from,to,currency,energy_kwh,energy_cost,hardware_cost");
        assertThat(lines).hasSize(5);
        assertThat(lines.get(1)).startsWith("gpu,ssh:root@pve1/GPU-3090,NVIDIA GeForce RTX 3090 on ssh:root@pve1,")
                .contains(",CNY,0.6000,0.3600,2.2831,2.6431,2.0000,4.0000,2.0000,1.3216,16.0000,13.3569");
        assertThat(lines.get(4)).startsWith("total,total,all GPUs,");
    }

    @Test
    void csvCellsAreQuotedAndFormulasNeutralised() {
        assertThat(CostCalculator.cell("a,b")).isEqualTo("\"a,b\"");
        assertThat(CostCalculator.cell("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(CostCalculator.cell("=cmd()")).isEqualTo("'=cmd()");
    }

    @Test
    void theExportIsWrittenWhole() throws Exception {
        CostProfile p = CostProfile.energyOnly(Tariff.flat("EUR", 0.30));
        CostReport r = report(p, T0, T0 + 3_600_000);
        Path out = dir.resolve("exports/cost.csv");
        new CostService(null, null).exportCsv(r, out);
        assertThat(Files.readString(out)).isEqualTo(CostCalculator.csv(r));
    }
}
