package io.gpuforge.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.sun.net.httpserver.HttpServer;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.testing.SharedFixtures;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Exporters scraped over a real local HTTP server serving the recorded scrapes. */
class ExporterSourceTest {

    private HttpServer server;

    private URI serve(byte[] body, int status) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        server.createContext("/metrics", x -> {
            x.sendResponseHeaders(status, body.length);
            try (OutputStream o = x.getResponseBody()) {
                o.write(body);
            }
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/metrics");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void dcgmL40sFullScrape() throws Exception {
        URI u = serve(SharedFixtures.read("exporters/dcgm-01-l40s-driver595-full-scrape-upcloud.metrics.txt"), 200);
        ExporterSource src = new ExporterSource(u);
        List<GpuSample> s = src.poll(1000, 1000);
        assertThat(s).hasSize(1);
        GpuSample g = s.get(0);
        assertThat(g.gpu().device()).isEqualTo("GPU-5b4e07f6-3a86-4340-039d-25f2a83cdc43");
        assertThat(g.name()).isEqualTo("NVIDIA L40S");
        assertThat(g.node()).hasValue("gpu1-wl8sg");
        assertThat(g.get(GpuMetric.TEMPERATURE_C)).hasValue(32);
        assertThat(g.get(GpuMetric.POWER_W).getAsDouble()).isCloseTo(35.686, within(1e-9));
        assertThat(g.get(GpuMetric.MEMORY_TEMPERATURE_C)).as("DCGM's 0 °C of a missing sensor").isEmpty();
        assertThat(g.get(GpuMetric.SM_CLOCK_MHZ)).hasValue(210);
        assertThat(g.source()).isEqualTo(SourceKind.DCGM_EXPORTER);
        assertThat(src.info().kind()).isEqualTo(SourceKind.DCGM_EXPORTER);
    }

    @Test
    void eightH100sWithDifferentLabelSetsAndNoHelp() throws Exception {
        URI u = serve(SharedFixtures.read("exporters/dcgm-03-h100x8-driver580-k8s-pod-labels-sampled-aicr.metrics.txt"), 200);
        List<GpuSample> s = new ExporterSource(u).poll(1000, 1000);
        assertThat(s).hasSize(8);
        assertThat(s).allSatisfy(g -> {
            assertThat(g.get(GpuMetric.TEMPERATURE_C)).isPresent();
            assertThat(g.get(GpuMetric.POWER_W)).isPresent();
            assertThat(g.get(GpuMetric.MEMORY_USED_MIB)).as("no FB_USED in this scrape").isEmpty();
            assertThat(g.name()).isEqualTo("NVIDIA H100 80GB HBM3");
        });
        assertThat(s.get(0).get(GpuMetric.POWER_W).getAsDouble()).isCloseTo(113.611, within(1e-9));
    }

    @Test
    void nvidiaGpuExporterUnitsAreConverted() throws Exception {
        URI u = serve(SharedFixtures.read(
                "exporters/nvidia_gpu_exporter-02-h100-80gb-hbm3-590.48.01-load-golden-from-real-capture.metrics.txt"), 200);
        ExporterSource src = new ExporterSource(u);
        GpuSample g = src.poll(1000, 1000).get(0);
        assertThat(g.name()).isEqualTo("NVIDIA H100 80GB HBM3");
        assertThat(g.get(GpuMetric.TEMPERATURE_C)).hasValue(59);
        assertThat(g.get(GpuMetric.POWER_W).getAsDouble()).isCloseTo(631.95, within(1e-9));
        assertThat(g.get(GpuMetric.POWER_LIMIT_W)).hasValue(700);
        assertThat(g.get(GpuMetric.POWER_MIN_LIMIT_W)).hasValue(200);
        assertThat(g.get(GpuMetric.UTILIZATION_PCT)).hasValue(100);
        assertThat(g.get(GpuMetric.MEMORY_USED_MIB).getAsDouble()).isCloseTo(19818, within(1e-6));
        assertThat(g.get(GpuMetric.SM_CLOCK_MHZ).getAsDouble()).isCloseTo(1980, within(1e-6));
        assertThat(src.info().kind()).isEqualTo(SourceKind.NVIDIA_GPU_EXPORTER);
    }

    @Test
    void notAnExporterIsExplained() throws Exception {
        URI u = serve("<html>hello</html>".getBytes(StandardCharsets.UTF_8), 200);
        assertThatThrownBy(() -> new ExporterSource(u).poll(0, 1000)).isInstanceOf(SourceException.class)
                .hasMessageContaining("not Prometheus format");
        stop();
        URI gone = serve(new byte[0], 404);
        assertThatThrownBy(() -> new ExporterSource(gone).poll(0, 1000)).hasMessageContaining("HTTP 404");
    }

    @Test
    void theParserSurvivesMangledScrapesWithItsOwnErrorOnly() throws Exception {
        String[] texts = {
            new String(SharedFixtures.read("exporters/dcgm-01-l40s-driver595-full-scrape-upcloud.metrics.txt"), StandardCharsets.UTF_8),
            new String(SharedFixtures.read("exporters/nvidia_gpu_exporter-02-h100-80gb-hbm3-590.48.01-load-golden-from-real-capture.metrics.txt"), StandardCharsets.UTF_8)};
        Random r = new Random(20261201);
        String alphabet = "{}\",=\\ \n#\t0123456789.eE+-abcXYZ_:NaInf";
        int parsed = 0;
        int refused = 0;
        for (int i = 0; i < 3000; i++) {
            StringBuilder b = new StringBuilder(texts[i % 2]);
            int edits = 1 + r.nextInt(8);
            for (int e = 0; e < edits && b.length() > 0; e++) {
                int at = r.nextInt(b.length());
                switch (r.nextInt(3)) {
                    case 0 -> b.deleteCharAt(at);
                    case 1 -> b.insert(at, alphabet.charAt(r.nextInt(alphabet.length())));
                    default -> b.setCharAt(at, alphabet.charAt(r.nextInt(alphabet.length())));
                }
            }
            try {
                PrometheusText.parse(b.toString());
                parsed++;
            } catch (PrometheusText.ParseException e) {
                assertThat(e.getMessage()).startsWith("line ");
                refused++;
            }
        }
        assertThat(parsed).isPositive();
        assertThat(refused).isPositive();
    }

    @Test
    void ourOwnEndpointIsReadBackByTheParser() throws Exception {
        GpuSample s = GpuSample.builder(new GpuId("local", "GPU-1"), 5, SourceKind.NVML)
                .name("RTX \"3090\"").set(GpuMetric.TEMPERATURE_C, 61).set(GpuMetric.POWER_W, 287.5)
                .set(GpuMetric.UTILIZATION_PCT, 40).build();
        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter.create().write(text,
                new GpuMetricsCollector(() -> List.of(s), java.util.Map::of).collect(),
                io.prometheus.metrics.config.EscapingScheme.ALLOW_UTF8);
        List<PrometheusText.Sample> back = PrometheusText.parse(text.toString(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(back).extracting(PrometheusText.Sample::name).containsExactlyInAnyOrder(
                "gpuforge_gpu_temperature_celsius", "gpuforge_gpu_power_watts", "gpuforge_gpu_utilization_ratio",
                "gpuforge_gpu_last_reading_timestamp_seconds", "gpuforge_gpu_info");
        assertThat(back).allSatisfy(x -> assertThat(x.labels()).containsEntry("gpu", "local/GPU-1"));
        assertThat(back).filteredOn(x -> x.name().equals("gpuforge_gpu_utilization_ratio")).singleElement()
                .satisfies(x -> assertThat(x.value()).as("a ratio, not a percentage").isEqualTo(0.4));
        assertThat(back).filteredOn(x -> x.name().equals("gpuforge_gpu_info")).singleElement()
                .satisfies(x -> assertThat(x.labels()).containsEntry("model", "RTX \"3090\""));
    }

    /**
     * The exporter that answers well, then trickles its body a byte a second, then sends far too much: each scrape
     * ends at its deadline or limit in the source's error naming the exporter, the limit and what had arrived (Java's
     * own request timeout would have left the poll hanging on the trickle), and the next good answer reads again.
     */
    @Test
    void aTrickledOrHugeScrapeFailsWithinItsLimitsAndTheNextOneReads() throws Exception {
        try (io.gpuforge.testing.FaultyHttpServer exporter = new io.gpuforge.testing.FaultyHttpServer()) {
            exporter.body("DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-1\",modelName=\"NVIDIA L40S\"} 42\n");
            ExporterSource src = new ExporterSource(URI.create(exporter.url("/metrics")),
                    new io.gpuforge.bounded.ReadLimits(java.time.Duration.ofSeconds(2), 256 * 1024));
            assertThat(src.poll(1000, 1000)).isNotEmpty();
            exporter.mode(io.gpuforge.testing.FaultyHttpServer.Mode.TRICKLE);
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> src.poll(2000, 1000)).isInstanceOf(SourceException.class)
                    .hasMessageStartingWith("the exporter at " + exporter.url("/metrics")
                            + " did not finish its answer within 2 s (")
                    .hasMessageContaining("had arrived); it is asked again at the next interval");
            assertThat((System.nanoTime() - t0) / 1_000_000).as("back within the deadline and a margin")
                    .isLessThan(6000);
            exporter.mode(io.gpuforge.testing.FaultyHttpServer.Mode.HUGE);
            assertThatThrownBy(() -> src.poll(3000, 1000)).isInstanceOf(SourceException.class)
                    .hasMessageContaining("sent more than 256 KiB").hasMessageEndingWith("is it an exporter?");
            exporter.mode(io.gpuforge.testing.FaultyHttpServer.Mode.GOOD);
            assertThat(src.poll(4000, 1000)).isNotEmpty();
            for (var m : List.of(io.gpuforge.testing.FaultyHttpServer.Mode.STALL_HEADERS,
                    io.gpuforge.testing.FaultyHttpServer.Mode.STALL_BODY,
                    io.gpuforge.testing.FaultyHttpServer.Mode.HALF_BODY_CLOSE,
                    io.gpuforge.testing.FaultyHttpServer.Mode.SERVER_ERROR,
                    io.gpuforge.testing.FaultyHttpServer.Mode.RESET)) {
                exporter.mode(m);
                long t = System.nanoTime();
                Throwable e = org.assertj.core.api.Assertions.catchThrowable(() -> src.poll(5000, 1000));
                long ms = (System.nanoTime() - t) / 1_000_000;
                System.out.printf("exporter fault %-15s -> %s in %,d ms: %s%n", m, e == null ? "nothing" : "error", ms,
                        e == null ? "" : e.getMessage());
                assertThat(e).as(m + " is an error naming the exporter").isInstanceOf(SourceException.class)
                        .hasMessageContaining(exporter.url("/metrics"));
                assertThat(ms).as(m + " ends within the deadline and a margin").isLessThan(6000);
                exporter.mode(io.gpuforge.testing.FaultyHttpServer.Mode.GOOD);
                assertThat(src.poll(6000, 1000)).as("read again after " + m).isNotEmpty();
            }
        }
    }
}
