package io.gpuforge.cli.passthrough;

import io.gpuforge.app.passthrough.GpuAssignments;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.vm.VmRef;
import java.io.IOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.JsonOption;

/**
 * {@code gpuforge detach}: takes every function of a GPU's card away from a VM (the Proxmox VE mapping stays for the
 * next VM).
 */
@Command(name = "detach", mixinStandardHelpOptions = true, description = "Take a GPU away from a VM.")
public final class DetachCommand implements Callable<Integer> {

    @Mixin
    VmOptions target = new VmOptions();

    @Mixin
    JsonOption json = new JsonOption();

    private final CliServices services;

    DetachCommand(CliServices services) {
        this.services = services;
    }

    @Override
    public Integer call() throws IOException {
        CliOutput o = services.output();
        try (VmOptions.Opened h = target.open(services)) {
            VmRef vm = target.vm(h.session);
            GpuAttachResult r = new GpuAssignments().detach(h.session, vm, target.device());
            AttachCommand.print(o, "detached", h.describe, vm, r, json.enabled());
            return 0;
        } catch (BackendException e) {
            o.error("gpuforge detach: " + e.getMessage());
            return CliOutput.exit(e);
        } catch (IllegalArgumentException e) {
            o.error("gpuforge detach: " + e.getMessage());
            return 2;
        }
    }
}
