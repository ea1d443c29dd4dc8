package io.gpuforge.passthrough;

import io.gpuforge.domain.host.HostFacts;

/** A boot loader GPUForge does not know: nothing is edited, the user is told what to add. */
final class UnknownBootLoader implements BootLoader {

    @Override
    public PlanPart kernelArguments(HostFacts f, KernelArguments args) {
        return PlanPart.note("The boot loader is unknown: add " + args.joined() + " to the kernel command line yourself.");
    }
}
