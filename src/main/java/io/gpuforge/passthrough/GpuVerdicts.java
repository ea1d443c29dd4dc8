package io.gpuforge.passthrough;

import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.passthrough.ReadinessReport;
import io.gpuforge.domain.passthrough.PassthroughOverrides;
import io.gpuforge.domain.passthrough.GpuVerdict;
import io.gpuforge.domain.passthrough.Coverage;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * "Which of my GPUs can I pass through?": every GPU of a host (every display-class function, base class 03,
 * in an IOMMU group or not) with its verdict and the checks behind it. Pure, for the CLI and the window's
 * verdict badges alike.
 */
public final class GpuVerdicts {


    private GpuVerdicts() {
    }

    public static List<GpuVerdict> of(HostFacts f, PassthroughOverrides o, Coverage c) {
        Set<String> hostIds = Readiness.evaluate(f, Optional.empty(), o, c).checks().stream().map(Check::id)
                .collect(Collectors.toSet());
        List<GpuVerdict> out = new ArrayList<>();
        for (PciDevice d : f.pci().devices()) {
            if (!d.isGpu()) {
                continue;
            }
            ReadinessReport r = Readiness.evaluate(f, Optional.of(d.address()), o, c);
            Verdict v = r.verdict().orElseThrow();
            List<Check> behind = r.checks().stream().filter(x -> hostIds.contains(x.id())
                    ? v.because().contains(x.id()) : x.status() != Check.Status.PASS).toList();
            out.add(new GpuVerdict(d.address(), d.name(), v, r, behind));
        }
        return out;
    }
}
