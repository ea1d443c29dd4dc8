package io.gpuforge.domain.share;

import java.util.Objects;

/**
 * A container as a cluster's listing shows it, without reading its configuration: where it runs, its id, name and
 * state ({@code running}, {@code stopped}…), its cores and memory limit (0 when the listing does not say).
 */
public record ContainerSummary(String node, int vmid, String name, String status, int cores, long maxMemBytes) {

    public ContainerSummary {
        Objects.requireNonNull(node);
        Objects.requireNonNull(name);
        Objects.requireNonNull(status);
    }

    public boolean running() {
        return status.equals("running");
    }
}
