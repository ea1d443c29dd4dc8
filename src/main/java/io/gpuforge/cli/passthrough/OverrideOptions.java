package io.gpuforge.cli.passthrough;

import io.gpuforge.domain.passthrough.PassthroughOverrides;
import picocli.CommandLine.Option;

/** The two readiness overrides, the same flags for check, plan and apply. */
final class OverrideOptions {

    @Option(names = "--allow-shared-group", description = "Accept passing the other devices of a shared IOMMU group too.")
    boolean allowShared;

    @Option(names = "--allow-host-critical", description = "Accept a group holding the boot GPU, management NIC or root disk.")
    boolean allowCritical;

    PassthroughOverrides overrides() {
        return new PassthroughOverrides(allowShared, allowCritical);
    }
}
