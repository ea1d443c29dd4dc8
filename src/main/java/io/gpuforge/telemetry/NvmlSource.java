package io.gpuforge.telemetry;

import com.sun.jna.Pointer;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceInfo;
import io.gpuforge.domain.telemetry.SourceKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The GPUs of the computer GPUForge runs on, read through NVML: temperature and its slowdown/shutdown thresholds,
 * power draw, the enforced limit and its range, utilisation, memory, fan, SM and memory clocks, clock-event
 * (throttle) reasons. Functions the driver lacks leave their readings absent.
 */
public final class NvmlSource implements GpuSource.Polled {

    private static final int TEMPERATURE_GPU = 0;
    private static final int THRESHOLD_SHUTDOWN = 0;
    private static final int THRESHOLD_SLOWDOWN = 1;
    private static final int CLOCK_SM = 1;
    private static final int CLOCK_MEM = 2;
    private final Nvml nvml;
    private final String host;
    private final SourceInfo info = new SourceInfo(SourceKind.NVML, "local", "local", "NVML on this computer");

    public NvmlSource(Nvml nvml, String host) {
        this.nvml = nvml;
        this.host = host;
    }

    public Nvml nvml() {
        return nvml;
    }

    @Override
    public SourceInfo info() {
        return info;
    }

    @Override
    public List<GpuSample> poll(long nowMillis, int intervalMillis) throws SourceException {
        int n = nvml.count();
        if (n == 0) {
            throw new SourceException("NVML sees no GPU on this computer (a GPU passed through to a VM is read inside"
                    + " the VM, through its guest agent)");
        }
        List<GpuSample> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Pointer d = nvml.handle(i);
            String uuid = nvml.text("nvmlDeviceGetUUID", d).orElse("index:" + i);
            GpuSample.Builder b = GpuSample.builder(new GpuId(host, uuid), nowMillis, SourceKind.NVML)
                    .name(nvml.text("nvmlDeviceGetName", d).orElse("")).intervalMillis(intervalMillis);
            set(b, GpuMetric.TEMPERATURE_C, nvml.uint("nvmlDeviceGetTemperature", d, TEMPERATURE_GPU), 1);
            set(b, GpuMetric.SHUTDOWN_TEMP_C, nvml.uint("nvmlDeviceGetTemperatureThreshold", d, THRESHOLD_SHUTDOWN), 1);
            set(b, GpuMetric.SLOWDOWN_TEMP_C, nvml.uint("nvmlDeviceGetTemperatureThreshold", d, THRESHOLD_SLOWDOWN), 1);
            set(b, GpuMetric.POWER_W, nvml.uint("nvmlDeviceGetPowerUsage", d), 1e-3);
            set(b, GpuMetric.POWER_LIMIT_W, nvml.uint("nvmlDeviceGetEnforcedPowerLimit", d), 1e-3);
            nvml.uintPair("nvmlDeviceGetPowerManagementLimitConstraints", d).ifPresent(mm -> {
                b.set(GpuMetric.POWER_MIN_LIMIT_W, mm[0] / 1000.0);
                b.set(GpuMetric.POWER_MAX_LIMIT_W, mm[1] / 1000.0);
            });
            nvml.struct("nvmlDeviceGetUtilizationRates", d, 2, false).ifPresent(u -> {
                b.set(GpuMetric.UTILIZATION_PCT, u[0]);
                b.set(GpuMetric.MEMORY_UTILIZATION_PCT, u[1]);
            });
            nvml.struct("nvmlDeviceGetMemoryInfo", d, 3, true).ifPresent(m -> {
                b.set(GpuMetric.MEMORY_TOTAL_MIB, m[0] / 1048576.0);
                b.set(GpuMetric.MEMORY_USED_MIB, m[2] / 1048576.0);
            });
            set(b, GpuMetric.FAN_PCT, nvml.uint("nvmlDeviceGetFanSpeed", d), 1);
            set(b, GpuMetric.SM_CLOCK_MHZ, nvml.uint("nvmlDeviceGetClockInfo", d, CLOCK_SM), 1);
            set(b, GpuMetric.MEMORY_CLOCK_MHZ, nvml.uint("nvmlDeviceGetClockInfo", d, CLOCK_MEM), 1);
            OptionalLong reasons = nvml.has("nvmlDeviceGetCurrentClocksEventReasons")
                    ? nvml.ulong("nvmlDeviceGetCurrentClocksEventReasons", d)
                    : nvml.ulong("nvmlDeviceGetCurrentClocksThrottleReasons", d);
            set(b, GpuMetric.THROTTLE_REASONS, reasons, 1);
            out.add(b.build());
        }
        return out;
    }

    private static void set(GpuSample.Builder b, GpuMetric m, OptionalLong v, double factor) {
        if (v.isPresent()) {
            b.set(m, v.getAsLong() * factor);
        }
    }

    /** Sets a GPU's power limit (it needs root); the GPU by its UUID. */
    public void setPowerLimit(String uuid, double watts) throws SourceException {
        int n = nvml.count();
        for (int i = 0; i < n; i++) {
            Pointer d = nvml.handle(i);
            if (nvml.text("nvmlDeviceGetUUID", d).map(uuid::equals).orElse(false)) {
                int rc = nvml.setPowerLimit(d, Math.round(watts * 1000));
                if (rc == Nvml.ERROR_NO_PERMISSION) {
                    throw new SourceException("setting the power limit needs root: run GPUForge as root, or use"
                            + " 'sudo nvidia-smi -i " + uuid + " -pl " + Math.round(watts) + "'");
                }
                if (rc != Nvml.SUCCESS) {
                    throw new SourceException("NVML refused the power limit " + watts + " W: " + nvml.error(rc));
                }
                return;
            }
        }
        throw new SourceException("no GPU " + uuid + " on this computer");
    }

    @Override
    public void close() {
        nvml.close();
    }
}
