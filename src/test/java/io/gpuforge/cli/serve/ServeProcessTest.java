package io.gpuforge.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.ReducedSeries;
import io.gpuforge.domain.telemetry.SeriesKey;
import io.gpuforge.testing.CliProcess;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gpuforge serve} as a service runs it: a process of its own over the saved Demo lab, with an alert rule the
 * simulated GPUs break at once. It samples into the store, prints the fired alert, loads no class of the window, and
 * on SIGTERM exits 0 saying how many samples it read and stored: the store, opened afterwards, holds that many.
 */
class ServeProcessTest {

    @TempDir
    Path dir;

    @Test
    void itSamplesTheSavedConnectionsFiresAlertsAndStopsCleanlyOnSigterm() throws Exception {
        Path appHome = dir.resolve("gpuforge");
        try (AppContext ctx = TestContexts.create(appHome, dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            ctx.connections().addDemo("Demo lab");
            ctx.alerts().save(new AlertRule(0, Optional.empty(), AlertRule.Kind.TEMPERATURE, 20, Duration.ZERO, 2,
                    true));
            // what the window's Preferences save: serve takes it without --prometheus (port 0: a free one)
            ctx.settings().update(s -> s.withPrometheus("127.0.0.1:0", null));
        }
        Path classes = dir.resolve("classes.log");
        Instant started = Instant.now();
        CliProcess cli = new CliProcess(dir.resolve("home"), appHome);
        CliProcess.Result end;
        try (CliProcess.Running serve = cli.start(List.of("-Xlog:class+load=info:file=" + classes), "serve")) {
            waitFor(() -> serve.out().contains("gpuforge serve: watching"), serve);
            assertThat(serve.out()).contains("watching 6 GPUs").contains("alert rules: 1");
            Matcher url = Pattern.compile("Prometheus: (http://127\\.0\\.0\\.1:\\d+/metrics)").matcher(serve.out());
            assertThat(url.find()).as(serve.out()).isTrue();
            waitFor(() -> java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(url.group(1))).build(), java.net.http.HttpResponse.BodyHandlers.ofString())
                    .body().contains("gpuforge_gpu_info{"), serve);
            waitFor(() -> serve.out().contains("alert fired"), serve);
            Thread.sleep(3000); // several samples of every GPU
            end = serve.terminate();
        }
        assertThat(end.exit()).as(end.out() + end.err()).isZero();
        Matcher m = Pattern.compile("stopped \\(SIGTERM\\): (\\d+) samples read, (\\d+) stored by this run")
                .matcher(end.out());
        assertThat(m.find()).as(end.out()).isTrue();
        long read = Long.parseLong(m.group(1));
        long stored = Long.parseLong(m.group(2));
        assertThat(read).as("6 GPUs for several seconds").isGreaterThanOrEqualTo(18);
        assertThat(stored).as("no sample read was lost").isEqualTo(read);
        assertThat(end.out()).contains("alert fired: Alert: ").contains("temperature ≥ 20 °C");

        try (AppContext ctx = TestContexts.create(appHome, dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            long inStore = 0;
            for (GpuId gpu : ctx.telemetry().knownGpus()) {
                inStore += ctx.telemetry().history(List.of(new SeriesKey(gpu, GpuMetric.TEMPERATURE_C)),
                        started.minusSeconds(1), Instant.now(), 100).stream().mapToLong(ReducedSeries::rawCount).sum();
            }
            assertThat(inStore).as("the readings in the store, counted by a reader of its own").isEqualTo(read);
        }
        List<String> fx = Files.readAllLines(classes).stream().filter(l -> l.contains(" javafx.")
                || l.contains(" com.sun.javafx.")).toList();
        assertThat(fx).as("classes of the window loaded by serve").isEmpty();
        assertThat(Files.readAllLines(classes)).as("the class-load log is real").anyMatch(l -> l.contains(
                "io.gpuforge.cli.serve.ServeCommand"));
    }

    private static void waitFor(Callable<Boolean> done, CliProcess.Running p) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!done.call()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("timed out; out: " + p.out() + " err: " + p.err());
            }
            Thread.sleep(100);
        }
    }
}
