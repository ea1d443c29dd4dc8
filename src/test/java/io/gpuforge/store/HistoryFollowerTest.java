package io.gpuforge.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceKind;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second connection to the store (the window's, while gpuforge serve writes) follows what the writer commits: each
 * sample once, in order, with its GPU's labels, across the minute a chunk is rewritten in and the next one.
 */
class HistoryFollowerTest {

    private static final GpuId A = new GpuId("demo:lab/pve-3090", "0000:01:00.0");
    private static final GpuId B = new GpuId("demo:lab/pve-4090", "0000:01:00.0");
    private static final long T0 = Instant.parse("2026-06-01T00:00:30Z").toEpochMilli();

    @TempDir
    Path dir;

    private static GpuSample sample(GpuId gpu, long t, double temp) {
        return GpuSample.builder(gpu, t, SourceKind.SIMULATED).name("RTX 3090").node(Optional.of(gpu.host()
                .substring(gpu.host().indexOf('/') + 1))).intervalMillis(1000).set(GpuMetric.TEMPERATURE_C, temp)
                .build();
    }

    @Test
    void theReaderGetsEachSampleTheWriterCommitsOnceAndInOrder() throws Exception {
        Path file = dir.resolve("gpuforge.db");
        try (Database writer = Database.open(file); Database reader = Database.open(file)) {
            TelemetryStore written = new TelemetryStore(writer, Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC),
                    TelemetryStore.Retention.defaults());
            written.append(List.of(sample(A, T0 - 120_000, 20))); // before the reader looks: history, not followed
            written.flush();
            HistoryFollower follower = new TelemetryStore(reader, Clock.systemUTC(),
                    TelemetryStore.Retention.defaults()).follower(T0 - 1);
            List<GpuSample> seen = new ArrayList<>();
            for (int s = 0; s < 50; s++) { // 50 s across a minute's end: the chunk of 00:00 grows, then 00:01 starts
                written.append(List.of(sample(A, T0 + s * 1000L, 40 + s), sample(B, T0 + s * 1000L, 60 + s)));
                written.flush();
                if (s % 7 == 0) {
                    seen.addAll(follower.next());
                }
            }
            seen.addAll(follower.next());
            assertThat(follower.next()).as("nothing new").isEmpty();
            assertThat(seen).hasSize(100);
            assertThat(seen.stream().filter(x -> x.gpu().equals(A)).map(x -> x.get(GpuMetric.TEMPERATURE_C)
                    .orElseThrow()).toList()).as("each sample of A once, in order")
                    .isEqualTo(java.util.stream.IntStream.range(0, 50).mapToObj(i -> 40.0 + i).toList());
            assertThat(seen).isSortedAccordingTo(java.util.Comparator.comparingLong(GpuSample::timeMillis));
            GpuSample b = seen.stream().filter(x -> x.gpu().equals(B)).findFirst().orElseThrow();
            assertThat(b.name()).isEqualTo("RTX 3090");
            assertThat(b.node()).contains("pve-4090");
            assertThat(b.source()).isEqualTo(SourceKind.SIMULATED);
        }
    }
}
