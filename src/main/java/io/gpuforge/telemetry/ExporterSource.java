package io.gpuforge.telemetry;

import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceInfo;
import io.gpuforge.domain.telemetry.SourceKind;
import java.io.IOException;
import java.net.URI;
import io.gpuforge.bounded.BoundedHttp;
import io.gpuforge.bounded.BoundedReadException;
import io.gpuforge.bounded.ReadLimits;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An exporter already running next to the GPUs: NVIDIA's DCGM exporter ({@code :9400}, {@code DCGM_FI_DEV_*}) or
 * nvidia_gpu_exporter ({@code :9835}, {@code nvidia_smi_*}), scraped once per tick and mapped to GPUForge's metrics.
 * Label sets may differ per series (Kubernetes pod labels on some), HELP/TYPE may be missing, and a GPU may report
 * no temperature or power at all: what is not there stays absent.
 */
public final class ExporterSource implements GpuSource.Polled {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final int MAX_BYTES = 16 * 1024 * 1024;
    private static final Map<String, GpuMetric> DCGM = Map.ofEntries(
            Map.entry("DCGM_FI_DEV_GPU_TEMP", GpuMetric.TEMPERATURE_C),
            Map.entry("DCGM_FI_DEV_MEMORY_TEMP", GpuMetric.MEMORY_TEMPERATURE_C),
            Map.entry("DCGM_FI_DEV_POWER_USAGE", GpuMetric.POWER_W),
            Map.entry("DCGM_FI_DEV_POWER_MGMT_LIMIT", GpuMetric.POWER_LIMIT_W),
            Map.entry("DCGM_FI_DEV_ENFORCED_POWER_LIMIT", GpuMetric.POWER_LIMIT_W),
            Map.entry("DCGM_FI_DEV_GPU_UTIL", GpuMetric.UTILIZATION_PCT),
            Map.entry("DCGM_FI_DEV_MEM_COPY_UTIL", GpuMetric.MEMORY_UTILIZATION_PCT),
            Map.entry("DCGM_FI_DEV_FB_USED", GpuMetric.MEMORY_USED_MIB),
            Map.entry("DCGM_FI_DEV_FAN_SPEED", GpuMetric.FAN_PCT),
            Map.entry("DCGM_FI_DEV_SM_CLOCK", GpuMetric.SM_CLOCK_MHZ),
            Map.entry("DCGM_FI_DEV_MEM_CLOCK", GpuMetric.MEMORY_CLOCK_MHZ),
            Map.entry("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", GpuMetric.THROTTLE_REASONS),
            Map.entry("DCGM_FI_DEV_SLOWDOWN_TEMP", GpuMetric.SLOWDOWN_TEMP_C),
            Map.entry("DCGM_FI_DEV_SHUTDOWN_TEMP", GpuMetric.SHUTDOWN_TEMP_C));
    /** nvidia_gpu_exporter's names, and the factor from its unit (bytes, ratios, Hz) to GPUForge's. */
    private static final Map<String, Object[]> NVIDIA_SMI = Map.ofEntries(
            Map.entry("nvidia_smi_temperature_gpu", new Object[] {GpuMetric.TEMPERATURE_C, 1.0}),
            Map.entry("nvidia_smi_temperature_memory", new Object[] {GpuMetric.MEMORY_TEMPERATURE_C, 1.0}),
            Map.entry("nvidia_smi_power_draw_watts", new Object[] {GpuMetric.POWER_W, 1.0}),
            Map.entry("nvidia_smi_enforced_power_limit_watts", new Object[] {GpuMetric.POWER_LIMIT_W, 1.0}),
            Map.entry("nvidia_smi_power_min_limit_watts", new Object[] {GpuMetric.POWER_MIN_LIMIT_W, 1.0}),
            Map.entry("nvidia_smi_power_max_limit_watts", new Object[] {GpuMetric.POWER_MAX_LIMIT_W, 1.0}),
            Map.entry("nvidia_smi_utilization_gpu_ratio", new Object[] {GpuMetric.UTILIZATION_PCT, 100.0}),
            Map.entry("nvidia_smi_utilization_memory_ratio", new Object[] {GpuMetric.MEMORY_UTILIZATION_PCT, 100.0}),
            Map.entry("nvidia_smi_memory_used_bytes", new Object[] {GpuMetric.MEMORY_USED_MIB, 1.0 / 1048576}),
            Map.entry("nvidia_smi_memory_total_bytes", new Object[] {GpuMetric.MEMORY_TOTAL_MIB, 1.0 / 1048576}),
            Map.entry("nvidia_smi_fan_speed_ratio", new Object[] {GpuMetric.FAN_PCT, 100.0}),
            Map.entry("nvidia_smi_clocks_current_sm_clock_hz", new Object[] {GpuMetric.SM_CLOCK_MHZ, 1e-6}),
            Map.entry("nvidia_smi_clocks_current_memory_clock_hz", new Object[] {GpuMetric.MEMORY_CLOCK_MHZ, 1e-6}),
            Map.entry("nvidia_smi_clocks_event_reasons_active", new Object[] {GpuMetric.THROTTLE_REASONS, 1.0}));

    private final URI url;
    private final ReadLimits limits;
    private final HttpClient http;
    private final String host;
    private volatile SourceInfo info;

    public ExporterSource(URI url) {
        this(url, new ReadLimits(TIMEOUT, MAX_BYTES));
    }

    /** With other limits than a scrape's 5 s and 16 MiB (the fault tests). */
    ExporterSource(URI url, ReadLimits limits) {
        this.limits = limits;
        this.url = url;
        this.host = "exporter:" + url.getScheme() + "://" + url.getAuthority();
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();
        this.info = new SourceInfo(SourceKind.DCGM_EXPORTER, host, url.toString(), "exporter at " + url);
    }

    @Override
    public SourceInfo info() {
        return info;
    }

    @Override
    public List<GpuSample> poll(long nowMillis, int intervalMillis) throws SourceException {
        String body;
        try {
            BoundedHttp.Answer r = BoundedHttp.send(http, HttpRequest.newBuilder(url).timeout(TIMEOUT)
                    .header("Accept", "text/plain;version=0.0.4").GET().build(), "the exporter at " + url, limits);
            if (r.status() >= 500) {
                throw new SourceException("the exporter at " + url + " answered HTTP " + r.status() + ": it runs but"
                        + " cannot give readings now (DCGM or the driver not ready, or a proxy in front of it); it is"
                        + " asked again at the next interval");
            }
            if (r.status() != 200) {
                throw new SourceException("the exporter at " + url + " answered HTTP " + r.status()
                        + " (is this the exporter's /metrics address?)");
            }
            body = r.text();
        } catch (BoundedReadException e) {
            throw new SourceException(e.getMessage() + (e.kind() == BoundedReadException.Kind.TOO_LARGE
                    ? "; is it an exporter?" : "; it is asked again at the next interval"), e);
        } catch (java.net.ConnectException | java.net.http.HttpConnectTimeoutException
                 | java.net.UnknownHostException | java.nio.channels.UnresolvedAddressException e) {
            throw new SourceException("cannot reach the exporter at " + url + ": " + e.getMessage()
                    + " (is it running, and is the port right: 9400 for DCGM, 9835 for nvidia_gpu_exporter?)", e);
        } catch (IOException e) {
            throw new SourceException("the connection to the exporter at " + url + " broke off: " + e.getMessage()
                    + "; it is asked again at the next interval", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SourceException("scraping " + url + " was interrupted", e);
        }
        try {
            return map(PrometheusText.parse(body), nowMillis, intervalMillis);
        } catch (PrometheusText.ParseException e) {
            throw new SourceException("the exporter at " + url + " sent text that is not Prometheus format: "
                    + e.getMessage(), e);
        }
    }

    /** The GPUs of a scrape, by UUID (or GPU index where a series has none). */
    List<GpuSample> map(List<PrometheusText.Sample> samples, long now, int interval) throws SourceException {
        Map<String, GpuSample.Builder> gpus = new LinkedHashMap<>();
        Map<String, double[]> fb = new LinkedHashMap<>();
        boolean dcgm = false;
        boolean smi = false;
        for (PrometheusText.Sample s : samples) {
            String uuid = s.labels().getOrDefault("UUID", s.labels().getOrDefault("uuid", ""));
            if (uuid.isEmpty() && s.labels().containsKey("gpu")) {
                uuid = "index:" + s.labels().get("gpu");
            }
            if (uuid.isEmpty()) {
                continue;
            }
            if (s.name().startsWith("DCGM_FI_")) {
                dcgm = true;
                GpuSample.Builder b = builder(gpus, uuid, now, interval, SourceKind.DCGM_EXPORTER, s.labels());
                GpuMetric m = DCGM.get(s.name());
                if (m != null && !(m == GpuMetric.MEMORY_TEMPERATURE_C && s.value() == 0)) {
                    b.set(m, s.value()); // DCGM reads 0 °C for a memory sensor the card does not have
                }
                if (s.name().equals("DCGM_FI_DEV_FB_USED") || s.name().equals("DCGM_FI_DEV_FB_FREE")
                        || s.name().equals("DCGM_FI_DEV_FB_RESERVED")) {
                    fb.computeIfAbsent(uuid, k -> new double[] {Double.NaN, Double.NaN, 0})[
                            s.name().endsWith("USED") ? 0 : s.name().endsWith("FREE") ? 1 : 2] = s.value();
                }
            } else if (s.name().startsWith("nvidia_smi_")) {
                smi = true;
                GpuSample.Builder b = builder(gpus, uuid, now, interval, SourceKind.NVIDIA_GPU_EXPORTER, s.labels());
                Object[] m = NVIDIA_SMI.get(s.name());
                if (m != null) {
                    b.set((GpuMetric) m[0], s.value() * (Double) m[1]);
                }
            }
        }
        fb.forEach((uuid, v) -> gpus.get(uuid).set(GpuMetric.MEMORY_TOTAL_MIB, v[0] + v[1] + v[2]));
        if (gpus.isEmpty()) {
            throw new SourceException("the scrape of " + url + " has no GPU metrics (neither DCGM_FI_* nor"
                    + " nvidia_smi_* series with a GPU label)");
        }
        SourceKind kind = dcgm || !smi ? SourceKind.DCGM_EXPORTER : SourceKind.NVIDIA_GPU_EXPORTER;
        info = new SourceInfo(kind, host, url.toString(), kind.label() + " at " + url);
        List<GpuSample> out = new ArrayList<>();
        gpus.values().forEach(b -> out.add(b.build()));
        return out;
    }

    private GpuSample.Builder builder(Map<String, GpuSample.Builder> gpus, String uuid, long now, int interval,
                                      SourceKind kind, Map<String, String> labels) {
        GpuSample.Builder b = gpus.get(uuid);
        if (b == null) {
            b = GpuSample.builder(new GpuId(host, uuid), now, kind).intervalMillis(interval);
            gpus.put(uuid, b);
        }
        String model = labels.getOrDefault("modelName", labels.getOrDefault("name", ""));
        if (!model.isEmpty()) {
            b.name(model);
        }
        String node = labels.getOrDefault("Hostname", "");
        if (!node.isEmpty()) {
            b.node(Optional.of(node));
        }
        return b;
    }

    @Override
    public void close() {
        // the HTTP client holds nothing that needs closing on Java 17
    }
}
