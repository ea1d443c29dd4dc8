package io.gpuforge.domain.passthrough;

import java.util.List;
import java.util.Optional;
import io.gpuforge.domain.pci.PciAddress;

/** One GPU's verdict and the checks behind it. */
/**
 * One GPU's verdict.
 *
 * @param report every check of the device (host checks first), as {@code check --device} gives them
 * @param behind the checks behind the verdict: the device's own checks that did not pass, and the host
 *               checks that decided it
 */
public record GpuVerdict(PciAddress address, Optional<String> name, Verdict verdict, ReadinessReport report,
                         List<Check> behind) {
    public GpuVerdict {
        behind = List.copyOf(behind);
    }

    public List<String> behindIds() {
        return behind.stream().map(Check::id).toList();
    }
}
