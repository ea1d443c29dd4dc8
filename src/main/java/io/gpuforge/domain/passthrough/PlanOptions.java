package io.gpuforge.domain.passthrough;

import java.util.Optional;

/** What the user chose beyond the device. */
public record PlanOptions(PassthroughOverrides overrides, boolean blacklistDrivers, Optional<String> vmId) {
    public static PlanOptions defaults() {
        return new PlanOptions(PassthroughOverrides.none(), false, Optional.empty());
    }
}
