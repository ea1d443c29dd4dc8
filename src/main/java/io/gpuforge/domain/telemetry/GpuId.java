package io.gpuforge.domain.telemetry;

import java.util.Objects;

/**
 * Which GPU, stable across restarts: the host that reports it ({@code local}, {@code ssh:root@pve1},
 * {@code vm:104@pve1}, {@code exporter:http://gpu1:9400}, {@code demo:Demo lab/pve-4090}) and the device on it
 * (the NVIDIA UUID where there is one, else the PCI address, else the index the source gives).
 */
public record GpuId(String host, String device) {

    public GpuId {
        Objects.requireNonNull(host);
        Objects.requireNonNull(device);
        if (host.isBlank() || device.isBlank()) {
            throw new IllegalArgumentException("a GPU id needs a host and a device");
        }
    }

    @Override
    public String toString() {
        return host + "/" + device;
    }
}
