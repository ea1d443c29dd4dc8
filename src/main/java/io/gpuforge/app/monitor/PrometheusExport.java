package io.gpuforge.app.monitor;

import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.telemetry.GpuMetricsCollector;
import io.gpuforge.telemetry.MetricsServer;
import io.gpuforge.telemetry.WebConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Telemetry's job of serving: the optional Prometheus endpoint with the latest reading of every GPU a watch holds.
 * One endpoint at most; it stops when telemetry closes.
 */
public final class PrometheusExport implements AutoCloseable {

    private final Supplier<Collection<GpuSample>> latest;
    private volatile MetricsServer endpoint;

    PrometheusExport(Supplier<Collection<GpuSample>> latest) {
        this.latest = latest;
    }

    /**
     * Starts the endpoint on {@code host:port} (0: a free port) with what {@code info} says of each GPU; returns the
     * port (the running one's when already started). A non-loopback host needs TLS and basic auth in
     * {@code webConfig}, a file that is watched: users, passwords and certificates change without a restart.
     */
    public synchronized int start(String host, int port, Optional<Path> webConfig,
                                  Supplier<Map<GpuId, GpuMetricsCollector.GpuLabels>> info)
            throws TelemetryService.Failure {
        if (endpoint == null) {
            try {
                GpuMetricsCollector collector = new GpuMetricsCollector(latest, info);
                endpoint = webConfig.isPresent() ? MetricsServer.start(host, port, webConfig.get(), collector)
                        : MetricsServer.start(host, port, WebConfig.none(), collector);
            } catch (IOException | IllegalArgumentException e) {
                throw new TelemetryService.Failure("Cannot serve Prometheus metrics on " + host + ":" + port + ": "
                        + e.getMessage(), e);
            }
        }
        return endpoint.port();
    }

    /** Whether the endpoint (when started) speaks TLS. */
    public boolean tls() {
        MetricsServer e = endpoint;
        return e != null && e.tls();
    }

    @Override
    public synchronized void close() {
        if (endpoint != null) {
            endpoint.close();
            endpoint = null;
        }
    }
}
