package io.gpuforge.telemetry;

import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceInfo;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.domain.telemetry.SourceStatus;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ONE long-lived {@code nvidia-smi --query-gpu=… --format=csv,noheader,nounits -lms N} per host, never a process
 * per sample. Each line is a GPU's reading, timestamped on receipt. When the process dies (or hangs: no line for
 * three intervals and five seconds) its GPUs get a gap marker and it is started again with backoff; a field the
 * driver refuses is dropped from the query (or replaced by its older name) and the stream restarts at once.
 */
public final class NvidiaSmiStream implements GpuSource.Streaming {

    private static final Logger LOG = LoggerFactory.getLogger(NvidiaSmiStream.class);
    /** A stream that ran this long was healthy: its next failure starts the backoff from the beginning. */
    private static final long HEALTHY_MILLIS = 30_000;

    private final LineStreams streams;
    private final String host;
    private final String executable;
    private final Optional<String> node;
    private final Clock clock;
    private final SourceInfo info;
    private final Map<GpuId, GpuSample> known = new ConcurrentHashMap<>();
    private volatile NvidiaSmiFields fields = NvidiaSmiFields.all();
    private volatile boolean closed;
    private LineStreams.Running running;
    private ScheduledFuture<?> watchdog;
    private volatile long lastLine;
    private volatile long startedAt;
    private volatile String problem = "";
    private volatile boolean refused;
    /** Whether the source said OK since it started or last failed. */
    private volatile boolean delivering;
    private int generation;
    private Backoff backoff;
    private int interval;
    private SampleSink sink;
    private TelemetryThreads threads;

    /**
     * @param host       the GPU id's host part ("local", "ssh:root@pve1")
     * @param executable the command ({@code nvidia-smi}, or a path)
     */
    public NvidiaSmiStream(LineStreams streams, String host, String executable, Optional<String> node, Clock clock) {
        this.streams = streams;
        this.host = host;
        this.executable = executable;
        this.node = node;
        this.clock = clock;
        this.info = new SourceInfo(SourceKind.NVIDIA_SMI, host, streams.describe(),
                "nvidia-smi stream on " + streams.describe());
    }

    @Override
    public SourceInfo info() {
        return info;
    }

    /** The command line the stream runs (one process, {@code -lms}). */
    public String command(int intervalMillis) {
        return executable + " --query-gpu=" + fields.queryArgument() + " --format=csv,noheader,nounits -lms "
                + intervalMillis;
    }

    @Override
    public synchronized void start(int intervalMillis, SampleSink sampleSink, TelemetryThreads t) {
        this.interval = intervalMillis;
        this.sink = sampleSink;
        this.threads = t;
        this.backoff = new Backoff(Math.max(1000, intervalMillis));
        launch();
        long period = Math.max(1000, intervalMillis);
        watchdog = t.timer().scheduleWithFixedDelay(this::checkAlive, period, period, TimeUnit.MILLISECONDS);
    }

    private synchronized void launch() {
        if (closed) {
            return;
        }
        int gen = ++generation;
        NvidiaSmiCsv csv = new NvidiaSmiCsv(fields);
        startedAt = clock.millis();
        lastLine = startedAt;
        problem = "";
        refused = false;
        try {
            running = streams.start(command(interval), new LineStreams.Sink() {
                @Override
                public void line(String line) {
                    onLine(gen, csv, line);
                }

                @Override
                public void ended(int exitCode, String partial, String stderr) {
                    onEnd(gen, exitCode, partial, stderr);
                }

                @Override
                public void lost(String why) {
                    stopped(gen, why);
                }
            });
        } catch (IOException e) {
            stopped(gen, "nvidia-smi could not be started on " + streams.describe() + ": " + e.getMessage());
        }
    }

    private void onLine(int gen, NvidiaSmiCsv csv, String text) {
        if (gen != generation || closed) {
            return;
        }
        long now = clock.millis();
        lastLine = now;
        NvidiaSmiCsv.Line line = csv.parse(text);
        if (line instanceof NvidiaSmiCsv.Row) {
            GpuSample s = ((NvidiaSmiCsv.Row) line).sample(host, now, SourceKind.NVIDIA_SMI).node(node)
                    .intervalMillis(interval).build();
            known.put(s.gpu(), s);
            sink.samples(List.of(s));
            if (!delivering) {
                delivering = true; // the first reading, or the first after a failure: the source is well again
                sink.status(new SourceStatus(info, SourceStatus.State.OK, Optional.empty(), Optional.empty(),
                        known.size()));
            }
        } else if (line instanceof NvidiaSmiCsv.FieldRefused) {
            String f = ((NvidiaSmiCsv.FieldRefused) line).field();
            Optional<NvidiaSmiFields> fewer = fields.without(f);
            if (fewer.isPresent()) {
                LOG.info("nvidia-smi on {} does not know the field {}; asking without it", streams.describe(), f);
                fields = fewer.get();
                refused = true;
            } else {
                problem = text.strip();
            }
        } else if (line instanceof NvidiaSmiCsv.Problem) {
            problem = ((NvidiaSmiCsv.Problem) line).message();
        } else if (line instanceof NvidiaSmiCsv.Noise && !((NvidiaSmiCsv.Noise) line).text().isEmpty()) {
            LOG.debug("nvidia-smi on {}: skipped '{}'", streams.describe(), text);
        }
    }

    private void onEnd(int gen, int exitCode, String partial, String stderr) {
        if (!partial.isEmpty() && gen == generation) {
            LOG.debug("nvidia-smi on {} ended in the middle of a line: '{}' (dropped)", streams.describe(), partial);
        }
        stopped(gen, exitCode, Optional.empty(), stderr);
    }

    /** The stream could not start or its host was lost: {@code why} says it all. */
    private void stopped(int gen, String why) {
        stopped(gen, -1, Optional.of(why), "");
    }

    private void stopped(int gen, int exitCode, Optional<String> why, String stderr) {
        long wait;
        synchronized (this) {
            if (gen != generation || closed) {
                return;
            }
            generation++; // lines of the dead process that are still on their way are ignored
            running = null;
            if (refused) {
                wait = 0;
            } else {
                if (clock.millis() - startedAt > HEALTHY_MILLIS) {
                    backoff.reset();
                }
                wait = backoff.failed();
            }
        }
        if (wait > 0) {
            delivering = false;
            String message = why.orElseGet(() -> message(exitCode, stderr));
            LOG.warn("nvidia-smi on {} stopped: {} (starting it again in {} s)", streams.describe(), message,
                    wait / 1000.0);
            gap();
            sink.status(new SourceStatus(info, SourceStatus.State.FAILING, Optional.of(message),
                    Optional.of(Instant.ofEpochMilli(clock.millis() + wait)), known.size()));
        }
        threads.timer().schedule(() -> threads.pool().execute(this::launch), wait, TimeUnit.MILLISECONDS);
    }

    private String message(int exitCode, String stderr) {
        String detail = !problem.isEmpty() ? problem : stderr.strip().lines().reduce((a, b) -> b).orElse("");
        if (exitCode == 127 || detail.contains("not found")) {
            return "nvidia-smi is not installed on " + streams.describe()
                    + " (install the NVIDIA driver there, or choose another source)";
        }
        return "nvidia-smi exited" + (exitCode >= 0 ? " with code " + exitCode : "")
                + (detail.isEmpty() ? "" : ": " + detail);
    }

    private void gap() {
        long now = clock.millis();
        List<GpuSample> gaps = new ArrayList<>();
        for (GpuSample s : known.values()) {
            gaps.add(GpuSample.gap(s.gpu(), now, s.source(), s.name(), interval).toBuilder().node(s.node()).build());
        }
        if (!gaps.isEmpty()) {
            sink.samples(gaps);
        }
    }

    /** A stream that stopped writing (a hung driver) is stopped and started again. */
    private void checkAlive() {
        LineStreams.Running r;
        int gen;
        synchronized (this) {
            r = running;
            gen = generation;
        }
        if (r != null && clock.millis() - lastLine > 3L * interval + 5000) {
            LOG.warn("nvidia-smi on {} wrote nothing for {} s; starting it again", streams.describe(),
                    (clock.millis() - lastLine) / 1000);
            r.close();
            stopped(gen, "nvidia-smi on " + streams.describe() + " wrote nothing for "
                    + (clock.millis() - lastLine) / 1000 + " s (a hung driver, or a connection that went silent);"
                    + " it is started again");
        }
    }

    @Override
    public void close() {
        LineStreams.Running r;
        synchronized (this) {
            closed = true;
            r = running;
            running = null;
            if (watchdog != null) {
                watchdog.cancel(false);
            }
        }
        if (r != null) {
            r.close();
        }
    }
}
