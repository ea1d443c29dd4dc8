package io.gpuforge.passthrough;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.host.HostFacts;

/** A boot loader GPUForge does not know: nothing is edited, the user is told what to add. */
final class UnknownBootLoader implements BootLoader {

    @Override
    public PlanPart kernelArguments(HostFacts f, KernelArguments args) {
        return PlanPart.note(Message.of("note.unknownBootLoader", args.joined()));
    }
}
