package io.gpuforge.domain.passthrough;

import java.util.List;
import java.util.Optional;

/** The readiness checks of a host (and a device), and the device's verdict. */
public record ReadinessReport(List<Check> checks, Optional<Verdict> verdict) {
    public ReadinessReport {
        checks = List.copyOf(checks);
    }

    public Optional<Check> check(String id) {
        return checks.stream().filter(c -> c.id().equals(id)).findFirst();
    }
}
