package io.gpuforge.bench;

import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceInfo;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.store.Database;
import io.gpuforge.store.StoreException;
import io.gpuforge.store.TelemetryStore;
import io.gpuforge.telemetry.GpuSource;
import io.gpuforge.telemetry.LocalLineStreams;
import io.gpuforge.telemetry.NvidiaSmiCsv;
import io.gpuforge.telemetry.NvidiaSmiFields;
import io.gpuforge.telemetry.NvidiaSmiStream;
import io.gpuforge.telemetry.SampleSink;
import io.gpuforge.telemetry.Sampler;
import io.gpuforge.telemetry.SourceException;
import io.gpuforge.telemetry.TelemetryThreads;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the product does with GPU readings, for the benchmarks: the shared telemetry threads, the sampler, and a sink
 * that writes every sample to the SQLite store in one batch a second (as TelemetryService does).
 */
final class BenchPipeline implements AutoCloseable {

    final TelemetryThreads threads = new TelemetryThreads();
    final Sampler sampler = new Sampler(threads, Clock.systemUTC());
    final AtomicLong samples = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    private final Database db;
    private final TelemetryStore store;
    private final List<Sampler.Registration> running = new ArrayList<>();
    private final SampleSink sink = new SampleSink() {
        @Override
        public void samples(List<GpuSample> batch) {
            long n = batch.stream().filter(s -> !s.isGap()).count();
            samples.addAndGet(n);
            store.append(batch);
        }
    };

    BenchPipeline(Path dbFile) throws StoreException {
        db = Database.open(dbFile);
        store = new TelemetryStore(db, Clock.systemUTC(), TelemetryStore.Retention.defaults());
        threads.timer().scheduleWithFixedDelay(() -> threads.pool().execute(this::flush), 1, 1, TimeUnit.SECONDS);
    }

    private void flush() {
        try {
            store.flush();
        } catch (StoreException e) {
            failures.incrementAndGet();
        }
    }

    /** One long-lived {@code nvidia-smi -lms} per host: the product's way. */
    void stream(String host, Path fake, Duration interval) {
        running.add(sampler.add(new NvidiaSmiStream(new LocalLineStreams(threads.pool()), host, fake.toString(),
                Optional.empty(), Clock.systemUTC()), interval, sink));
    }

    /** The naive way: a new {@code nvidia-smi --query-gpu} process at each tick. */
    void processPerSample(String host, Path fake, Duration interval) {
        running.add(sampler.add(new PerSample(host, fake), interval, sink));
    }

    void stopSources() {
        running.forEach(Sampler.Registration::close);
        running.clear();
    }

    @Override
    public void close() {
        stopSources();
        flush();
        threads.close();
        db.close();
    }

    /** {@code nvidia-smi} started for every reading and parsed like the stream's lines. */
    private static final class PerSample implements GpuSource.Polled {
        private final String host;
        private final Path fake;
        private final SourceInfo info;

        PerSample(String host, Path fake) {
            this.host = host;
            this.fake = fake;
            this.info = new SourceInfo(SourceKind.NVIDIA_SMI, host, host, "nvidia-smi per sample on " + host, false);
        }

        @Override
        public SourceInfo info() {
            return info;
        }

        @Override
        public List<GpuSample> poll(long nowMillis, int intervalMillis) throws SourceException {
            NvidiaSmiCsv csv = new NvidiaSmiCsv(NvidiaSmiFields.all());
            try {
                Process p = new ProcessBuilder(fake.toString(), "--query-gpu=" + csv.fields().queryArgument(),
                        "--format=csv,noheader,nounits").redirectError(ProcessBuilder.Redirect.DISCARD).start();
                p.getOutputStream().close();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                p.waitFor();
                List<GpuSample> got = new ArrayList<>();
                for (String line : out.split("\n")) {
                    if (csv.parse(line) instanceof NvidiaSmiCsv.Row r) {
                        got.add(r.sample(host, nowMillis, SourceKind.NVIDIA_SMI).intervalMillis(intervalMillis).build());
                    }
                }
                return got;
            } catch (IOException e) {
                throw new SourceException("nvidia-smi could not be started: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SourceException("interrupted");
            }
        }

        @Override
        public void close() {
        }
    }
}
