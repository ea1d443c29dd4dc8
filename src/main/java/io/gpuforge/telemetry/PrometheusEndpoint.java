package io.gpuforge.telemetry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * The latest samples in Prometheus text format on {@code http://127.0.0.1:PORT/metrics}, for sites that hand the
 * history to Prometheus and Grafana: {@code gpuforge_gpu_temperature_celsius}, {@code gpuforge_gpu_power_watts}, …
 * with labels {@code host}, {@code uuid}, {@code model}, {@code vm}, {@code node}, {@code source}. Localhost only.
 */
public final class PrometheusEndpoint implements AutoCloseable {

    private static final Map<GpuMetric, String[]> NAMES = Map.ofEntries(
            Map.entry(GpuMetric.TEMPERATURE_C, new String[] {"gpuforge_gpu_temperature_celsius", "GPU temperature"}),
            Map.entry(GpuMetric.MEMORY_TEMPERATURE_C, new String[] {"gpuforge_gpu_memory_temperature_celsius", "memory temperature"}),
            Map.entry(GpuMetric.POWER_W, new String[] {"gpuforge_gpu_power_watts", "power draw"}),
            Map.entry(GpuMetric.POWER_LIMIT_W, new String[] {"gpuforge_gpu_power_limit_watts", "enforced power limit"}),
            Map.entry(GpuMetric.UTILIZATION_PCT, new String[] {"gpuforge_gpu_utilization_percent", "GPU utilisation"}),
            Map.entry(GpuMetric.MEMORY_USED_MIB, new String[] {"gpuforge_gpu_memory_used_mebibytes", "memory used"}),
            Map.entry(GpuMetric.MEMORY_TOTAL_MIB, new String[] {"gpuforge_gpu_memory_total_mebibytes", "memory total"}),
            Map.entry(GpuMetric.FAN_PCT, new String[] {"gpuforge_gpu_fan_percent", "fan speed"}),
            Map.entry(GpuMetric.SM_CLOCK_MHZ, new String[] {"gpuforge_gpu_sm_clock_megahertz", "SM clock"}),
            Map.entry(GpuMetric.MEMORY_CLOCK_MHZ, new String[] {"gpuforge_gpu_memory_clock_megahertz", "memory clock"}),
            Map.entry(GpuMetric.THROTTLE_REASONS, new String[] {"gpuforge_gpu_clock_event_reasons", "clock event reason bits"}));

    private final HttpServer server;

    private PrometheusEndpoint(HttpServer server) {
        this.server = server;
    }

    /** Serves on 127.0.0.1:{@code port} (0 picks a free one). */
    public static PrometheusEndpoint start(int port, Supplier<Collection<GpuSample>> latest, ExecutorService pool)
            throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        s.createContext("/metrics", x -> answer(x, render(latest.get())));
        s.setExecutor(pool);
        s.start();
        return new PrometheusEndpoint(s);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void answer(HttpExchange x, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
        x.sendResponseHeaders(200, b.length);
        try (OutputStream o = x.getResponseBody()) {
            o.write(b);
        }
    }

    /** The exposition text of these samples (gap markers and absent readings give no line). */
    public static String render(Collection<GpuSample> samples) {
        StringBuilder out = new StringBuilder();
        for (GpuMetric m : GpuMetric.values()) {
            String[] n = NAMES.get(m);
            if (n == null) {
                continue;
            }
            List<GpuSample> with = samples.stream().filter(s -> s.has(m)).toList();
            if (with.isEmpty()) {
                continue;
            }
            out.append("# HELP ").append(n[0]).append(' ').append(n[1]).append(" (").append(m.unit()).append(")\n");
            out.append("# TYPE ").append(n[0]).append(" gauge\n");
            for (GpuSample s : with) {
                out.append(n[0]).append("{host=\"").append(esc(s.gpu().host())).append("\",uuid=\"")
                        .append(esc(s.gpu().device())).append("\",model=\"").append(esc(s.name())).append("\",vm=\"")
                        .append(esc(s.vm().orElse(""))).append("\",node=\"").append(esc(s.node().orElse("")))
                        .append("\",source=\"").append(s.source().json()).append("\"} ")
                        .append(String.format(Locale.ROOT, "%s", s.raw(m))).append(' ').append(s.timeMillis()).append('\n');
            }
        }
        return out.toString();
    }

    private static String esc(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
