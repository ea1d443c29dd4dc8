package io.gpuforge.cli.serve;

import static io.gpuforge.cli.serve.ServeWaits.freePort;
import static io.gpuforge.cli.serve.ServeWaits.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.ReducedSeries;
import io.gpuforge.domain.telemetry.SeriesKey;
import io.gpuforge.testing.CliProcess;
import io.gpuforge.testing.WebhookReceiver;
import io.gpuforge.testing.TestContexts;
import io.gpuforge.testing.Tools;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gpuforge serve} as a service runs it, over a saved Demo lab with an alert rule its GPUs break and the
 * Prometheus address saved as Preferences save it, scraped by a real Prometheus (the Debian package) on loopback for
 * more than 20 s: {@code promtool check metrics} accepts the endpoint's text, a request whose Host is not a loopback
 * name is refused (DNS rebinding), what PromQL answers for the temperature and power of each GPU is what the store
 * holds for the same window within the sampling's error; the alert is printed; SIGTERM ends it with exit 0 and
 * "N samples read, N stored", N being what a second reader counts in the store; no JavaFX class was loaded.
 */
class PrometheusScrapeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aRealPrometheusScrapesServeAndAnswersWhatTheStoreHolds() throws Exception {
        Tools.require("prometheus", "prometheus");
        Tools.require("promtool", "prometheus");
        Path appHome = dir.resolve("gpuforge");
        int metricsPort = freePort();
        try (AppContext ctx = TestContexts.create(appHome, dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            ctx.connections().addDemo("Demo lab");
            // an alert rule the simulated GPUs break at once
            ctx.alerts().save(new AlertRule(0, Optional.empty(), AlertRule.Kind.TEMPERATURE, 20, Duration.ZERO, 2,
                    true));
            // what the window's Preferences save: serve takes it without --prometheus
            ctx.settings().update(st -> st.withPrometheus("127.0.0.1:" + metricsPort, null));
        }
        Path classes = dir.resolve("classes.log");
        java.time.Instant started = java.time.Instant.now();
        int promPort = freePort();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        CliProcess cli = new CliProcess(dir.resolve("home"), appHome);
        Map<String, Double> temperature;
        Map<String, Double> power;
        long at;
        CliProcess.Result end;
        // the system service's way to its secrets: the vault's passphrase as a systemd credential; the alerts'
        // webhook set with its bearer token as an admin does (gpuforge-service alert webhook …)
        Path credentials = Files.createDirectories(dir.resolve("credentials"));
        Files.writeString(credentials.resolve("vault-passphrase"), "passphrase of the service's vault\n");
        Map<String, String> service = Map.of("CREDENTIALS_DIRECTORY", credentials.toString());
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            CliProcess.Result hook = cli.run(service, "hook-token\n", "alert", "webhook", "--url",
                    receiver.url("/ntfy/gpus"), "--token-stdin");
            assertThat(hook.exit()).as(hook.err()).isZero();
            assertThat(hook.out()).contains("with a bearer token");
            try (CliProcess.Running serve = cli.start(service, List.of("-Xlog:class+load=info:file=" + classes),
                    "serve")) {
                waitFor(() -> serve.out().contains("Prometheus: http://127.0.0.1:" + metricsPort + "/metrics"),
                        serve::err);
                assertThat(serve.out()).contains("watching 6 GPUs").contains("alert rules: 1");
                waitFor(() -> serve.out().contains("alert fired"), serve::out);
                assertThat(serve.out()).contains("secrets: vault, unlocked").contains("webhook: http://127.0.0.1:");
                // the alert fired with no window open reaches the webhook, with the token from the vault
                waitFor(() -> receiver.posts().stream().anyMatch(p -> p.body().contains("\"state\":\"fired\"")),
                        serve::err);
                WebhookReceiver.Post post = receiver.posts().get(0);
                JsonNode body = JSON.readTree(post.body());
                assertThat(post.authorization()).isEqualTo("Bearer hook-token");
                assertThat(post.path()).isEqualTo("/ntfy/gpus");
                assertThat(body.get("text").asText()).startsWith("GPUForge on ").contains("Alert: ", "20 °C");
                assertThat(body.get("gpu").asText()).startsWith("demo:Demo lab/");
                Files.writeString(dir.resolve("webhook-body.json"), post.body());
                String metrics = get(http, "http://127.0.0.1:" + metricsPort + "/metrics");
                waitFor(() -> get(http, "http://127.0.0.1:" + metricsPort + "/metrics")
                        .contains("gpuforge_gpu_temperature_celsius{"), serve::err);
                metrics = get(http, "http://127.0.0.1:" + metricsPort + "/metrics");
                Path text = Files.writeString(dir.resolve("metrics.txt"), metrics);
                Process check = new ProcessBuilder("promtool", "check", "metrics").redirectInput(text.toFile())
                        .redirectErrorStream(true).start();
                String checked = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(check.waitFor()).as("promtool check metrics: " + checked).isZero();
                // the holder every command names: llm-70b (121) of the two VMs set up with it, CT 201 sharing one
                assertThat(metrics).contains("gpuforge_gpu_info{").contains("holder=\"vm:121\"")
                        .contains("holder=\"ct:201\"").contains("holder=\"free\"")
                        .contains("gpuforge_gpu_power_watts{gpu=")
                        .doesNotContainPattern("\\} [-0-9.e+]+ \\d{13}$");
                assertThat(rawStatus(metricsPort, "evil.example")).as("a rebound DNS name").isEqualTo(403);
                assertThat(rawStatus(metricsPort, "127.0.0.1:" + metricsPort)).isEqualTo(200);

                Path config = Files.writeString(dir.resolve("prometheus.yml"), "global:\n  scrape_interval: 1s\n"
                        + "scrape_configs:\n  - job_name: gpuforge\n    static_configs:\n      - targets: ['127.0.0.1:"
                        + metricsPort + "']\n");
                Process prom = new ProcessBuilder("prometheus", "--config.file=" + config, "--storage.tsdb.path="
                        + dir.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + promPort)
                        .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
                try {
                    String api = "http://127.0.0.1:" + promPort + "/api/v1/";
                    waitFor(() -> query(http, api, "count(up{job=\"gpuforge\"} == 1)").size() == 1,
                            () -> Files.readString(dir.resolve("prometheus.log")));
                    Thread.sleep(21_000); // scraped for more than 20 s
                    at = System.currentTimeMillis() / 1000 * 1000;
                    temperature = byGpu(query(http, api + "", "avg_over_time(gpuforge_gpu_temperature_celsius[15s])"
                            + "&time=" + at / 1000));
                    power = byGpu(query(http, api, "avg_over_time(gpuforge_gpu_power_watts[15s])&time=" + at / 1000));
                    List<JsonNode> info = query(http, api, "gpuforge_gpu_info{node=\"pve-3090\"}");
                    assertThat(info).as("the info metric carries the node").hasSize(4);
                } finally {
                    prom.destroy();
                    prom.waitFor(20, TimeUnit.SECONDS);
                }
                end = serve.terminate();
            }
        }
        // SIGTERM: exit 0, every reading read was stored
        assertThat(end.exit()).as(end.out() + end.err()).isZero();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "stopped \\(SIGTERM\\): (\\d+) samples read, (\\d+) stored by this run").matcher(end.out());
        assertThat(m.find()).as(end.out()).isTrue();
        long read = Long.parseLong(m.group(1));
        assertThat(read).as("6 GPUs for half a minute").isGreaterThanOrEqualTo(60);
        assertThat(Long.parseLong(m.group(2))).as("no sample read was lost").isEqualTo(read);
        assertThat(end.out()).contains("alert fired: Alert: ").contains("temperature ≥ 20 °C");
        assertThat(Files.readAllLines(classes)).as("classes of the window loaded by serve")
                .noneMatch(l -> l.contains(" javafx.") || l.contains(" com.sun.javafx."))
                .as("the class-load log is real").anyMatch(l -> l.contains("io.gpuforge.cli.serve.ServeCommand"));
        assertThat(temperature).as("every Demo lab GPU").hasSize(6);
        try (AppContext ctx = TestContexts.create(appHome, dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            long inStore = 0;
            for (GpuId gpu : ctx.telemetry().history().knownGpus()) {
                inStore += ctx.telemetry().history().reduced(List.of(new SeriesKey(gpu, GpuMetric.TEMPERATURE_C)),
                        started.minusSeconds(1), java.time.Instant.now(), 100).stream()
                        .mapToLong(ReducedSeries::rawCount).sum();
                double t = storeAverage(ctx, gpu, GpuMetric.TEMPERATURE_C, at);
                double p = storeAverage(ctx, gpu, GpuMetric.POWER_W, at);
                assertThat(temperature.get(gpu.toString())).as("temperature of " + gpu).isCloseTo(t,
                        org.assertj.core.data.Offset.offset(1.5));
                assertThat(power.get(gpu.toString())).as("power of " + gpu).isCloseTo(p,
                        org.assertj.core.data.Offset.offset(Math.max(5, p * 0.08)));
            }
            assertThat(inStore).as("the readings in the store, counted by a reader of its own").isEqualTo(read);
        }
    }

    /** The average of a GPU's stored raw readings in the 15 s before {@code at}. */
    private static double storeAverage(AppContext ctx, GpuId gpu, GpuMetric m, long at) throws Exception {
        ReducedSeries s = ctx.telemetry().history().reduced(List.of(new SeriesKey(gpu, m)), java.time.Instant.ofEpochMilli(
                at - 15_000), java.time.Instant.ofEpochMilli(at), 1000).get(0);
        return s.points().stream().mapToDouble(ReducedSeries.Point::value).average().orElseThrow();
    }

    private static Map<String, Double> byGpu(List<JsonNode> result) {
        Map<String, Double> out = new HashMap<>();
        for (JsonNode r : result) {
            out.put(r.path("metric").path("gpu").asText(), Double.parseDouble(r.path("value").get(1).asText()));
        }
        return out;
    }

    private static List<JsonNode> query(HttpClient http, String api, String promql) throws Exception {
        int amp = promql.indexOf("&time=");
        String q = amp < 0 ? promql : promql.substring(0, amp);
        String time = amp < 0 ? "" : promql.substring(amp);
        JsonNode answer = JSON.readTree(get(http, api + "query?query=" + URLEncoder.encode(q, StandardCharsets.UTF_8)
                + time));
        assertThat(answer.path("status").asText()).as(answer.toString()).isEqualTo("success");
        List<JsonNode> out = new java.util.ArrayList<>();
        answer.path("data").path("result").forEach(out::add);
        return out;
    }

    private static String get(HttpClient http, String url) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200 ? r.body() : "";
    }

    /** The status of GET /metrics sent with this Host header (a browser on a rebound domain sends its own). */
    private static int rawStatus(int port, String host) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream o = s.getOutputStream();
            o.write(("GET /metrics HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            o.flush();
            InputStream in = s.getInputStream();
            String first = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            return Integer.parseInt(first.substring(9, 12));
        }
    }
}
