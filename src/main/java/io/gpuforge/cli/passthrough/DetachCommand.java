package io.gpuforge.cli.passthrough;

import io.gpuforge.app.passthrough.GpuAssignments;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.vm.VmRef;
import picocli.CommandLine.Command;
import io.gpuforge.cli.common.CliServices;

/**
 * {@code gpuforge detach}: takes every function of a GPU's card away from a VM (the Proxmox VE mapping stays for the
 * next VM).
 */
@Command(name = "detach", mixinStandardHelpOptions = true, description = "Take a GPU away from a VM.")
public final class DetachCommand extends VmGpuCommand {

    DetachCommand(CliServices services) {
        super(services);
    }

    @Override
    String verb() {
        return "detach";
    }

    @Override
    String done() {
        return "detached";
    }

    @Override
    GpuAttachResult change(VmOptions.Opened h, VmRef vm) throws BackendException {
        return new GpuAssignments().detach(h.session, vm, target.device());
    }
}
