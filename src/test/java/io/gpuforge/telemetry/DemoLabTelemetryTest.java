package io.gpuforge.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.GpuTarget;
import io.gpuforge.domain.telemetry.ReducedSeries;
import io.gpuforge.domain.telemetry.SeriesKey;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.domain.telemetry.SourceStatus;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.testing.Eventually;

/**
 * The Demo lab's GPUs in the TelemetryService of the composition root the window is built on (TestContexts.create,
 * as GuiFixture does): the connection added as the window's dialog adds it and its cluster read first as the tree
 * does, then watched: simulated samples, labelled, in the latest values and in the history a chart reads.
 */
class DemoLabTelemetryTest {

    @TempDir
    Path dir;

    @Test
    void theDemoLabsGpusProduceLabelledSamplesLatestValuesAndHistory() throws Exception {
        try (AppContext ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            ConnectionInfo demo = ctx.connections().addDemo("Demo lab");
            assertThat(ctx.sessions().of(demo).inventory().gpus()).isNotEmpty();
            List<GpuSample> samples = new CopyOnWriteArrayList<>();
            List<SourceStatus> statuses = new CopyOnWriteArrayList<>();
            Instant from = Instant.now().minusSeconds(1);
            try (TelemetryService.Watch w = ctx.telemetry().watch(new GpuTarget.Connection(demo),
                    Duration.ofMillis(200), samples::add, statuses::add)) {
                Eventually.until("ten simulated samples", Duration.ofSeconds(30), () -> samples.size() >= 10);
                assertThat(w.sources()).singleElement().satisfies(s -> assertThat(s.kind()).isEqualTo(SourceKind.SIMULATED));
            }
            assertThat(samples).hasSizeGreaterThanOrEqualTo(10).allSatisfy(s -> {
                assertThat(s.source()).isEqualTo(SourceKind.SIMULATED);
                assertThat(s.get(GpuMetric.TEMPERATURE_C)).isPresent();
                assertThat(s.get(GpuMetric.POWER_W)).isPresent();
            });
            assertThat(samples).anySatisfy(s -> {
                assertThat(s.node()).hasValue("pve-4090");
                assertThat(s.vm()).hasValue("train-01");
            });
            assertThat(statuses).anyMatch(s -> s.state() == SourceStatus.State.OK);
            assertThat(ctx.telemetry().latest()).isNotEmpty()
                    .allSatisfy(s -> assertThat(s.source()).isEqualTo(SourceKind.SIMULATED));
            GpuSample one = samples.get(0);
            List<ReducedSeries> h = ctx.telemetry().history().reduced(List.of(new SeriesKey(one.gpu(), GpuMetric.POWER_W)), from,
                    Instant.now().plusSeconds(1), 100);
            assertThat(h.get(0).rawCount()).as("stored as they came").isPositive();
            assertThat(h.get(0).points()).isNotEmpty();
        }
    }
}
