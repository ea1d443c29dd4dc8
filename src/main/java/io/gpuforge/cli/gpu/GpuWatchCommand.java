package io.gpuforge.cli.gpu;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceInfo;
import io.gpuforge.domain.telemetry.SourceStatus;
import java.time.Duration;
import java.util.HashSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;

/**
 * {@code gpuforge gpu watch}: one line per GPU per sample, as they arrive. --json: one JSON object per line;
 * --quiet: no "Reading through …" line.
 */
@Command(name = "watch", mixinStandardHelpOptions = true, description = "Print one line per GPU per sample as they"
        + " arrive (text, --csv or --json lines); Ctrl-C stops.")
final class GpuWatchCommand extends CliCommand {
    @Mixin
    GpuTargetOptions target = new GpuTargetOptions();

    @Option(names = "--interval", paramLabel = "S", description = "Seconds between samples, 0.2 to 10 (default 1).")
    double interval = 1;

    @Option(names = "--csv", description = "CSV with a header line.")
    boolean csv;

    @Option(names = "--count", paramLabel = "N", description = "Stop after N samples, a sample being one reading of"
            + " every GPU watched (default: until stopped).")
    long count = Long.MAX_VALUE;

    @Option(names = "--duration", paramLabel = "S", description = "Stop after S seconds (default: until stopped).")
    double duration = -1;

    GpuWatchCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws Exception {
        boolean asJson = json.enabled();
        if (csv && asJson) {
            services.output().error("gpuforge gpu watch: choose --csv or --json, not both");
            return 2;
        }
        if (!(interval >= 0.2 && interval <= 10)) {
            services.output().error("gpuforge gpu watch: --interval takes 0.2 to 10 seconds, not " + interval);
            return 2;
        }
        if (count < 1) {
            services.output().error("gpuforge gpu watch: --count must be 1 or more, not " + count);
            return 2;
        }
        CliOutput out = services.output();
        try (AppContext ctx = services.openContext()) {
            CountDownLatch done = new CountDownLatch(1);
            SampleRounds rounds = new SampleRounds(count);
            Object lock = new Object();
            GpuTargetOptions.Named named;
            try {
                named = target.named(services, ctx);
            } catch (IllegalArgumentException e) {
                out.error("gpuforge gpu watch: " + e.getMessage());
                return 2;
            }
            if (csv) {
                out.line(GpuCommand.csvHeader());
            }
            try (named; TelemetryService.Watch w = named.watch(ctx.telemetry(),
                    Duration.ofMillis(Math.round(interval * 1000)), (source, whole, batch) -> {
                        synchronized (lock) {
                            for (GpuSample s : rounds.accept(source, whole, batch)) {
                                if (s.isGap() || !named.onNode(s)) {
                                    continue;
                                }
                                if (asJson) {
                                    out.out().println(jsonLine(out, s));
                                    out.out().flush();
                                } else {
                                    out.line(csv ? GpuCommand.csv(s) : GpuCommand.text(s));
                                }
                            }
                            if (rounds.complete()) {
                                done.countDown();
                            }
                        }
                    }, st -> {
                        if (st.state() == SourceStatus.State.FAILING) {
                            out.error("gpuforge gpu watch: " + st.source().description() + ": " + st.problem().orElse("")
                                    + st.retryAt().map(t -> " (trying again at " + t + ")").orElse(""));
                        }
                    })) {
                synchronized (lock) {
                    rounds.sources(new HashSet<>(w.sources()).size());
                    if (rounds.complete()) {
                        done.countDown();
                    }
                }
                if (!json.quiet) {
                    out.error("Reading through " + String.join("; ", w.sources().stream()
                            .map(SourceInfo::description).toList()));
                }
                if (duration > 0) {
                    done.await(Math.round(duration * 1000), TimeUnit.MILLISECONDS);
                } else {
                    done.await();
                }
            } catch (TelemetryService.Failure | IllegalArgumentException e) {
                out.error("gpuforge gpu watch: " + e.getMessage());
                return CliOutput.exit(e);
            }
        }
        return 0;
    }

    private static String jsonLine(CliOutput out, GpuSample s) {
        try {
            return out.mapper().copy().disable(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(GpuCommand.json(s));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write a JSON line", e);
        }
    }
}
