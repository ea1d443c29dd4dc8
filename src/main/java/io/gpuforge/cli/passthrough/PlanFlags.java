package io.gpuforge.cli.passthrough;

import io.gpuforge.domain.passthrough.PlanOptions;
import java.util.Optional;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What plan and apply share: the device and the choices that shape the plan. */
final class PlanFlags {

    @Option(names = "--device", required = true, paramLabel = "BDF", description = "The GPU, e.g. 0000:01:00.0.")
    String device;

    @Option(names = "--vm", paramLabel = "ID", description = "The VM that gets the GPU (Proxmox VMID or libvirt domain).")
    String vm;

    @Mixin
    OverrideOptions overrides = new OverrideOptions();

    @Option(names = "--blacklist", description = "Also blacklist the host drivers of the card.")
    boolean blacklist;

    PlanOptions options() {
        return new PlanOptions(overrides.overrides(), blacklist, Optional.ofNullable(vm));
    }
}
