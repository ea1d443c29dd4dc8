package io.gpuforge.cli.passthrough;

import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.vm.VmRef;
import java.io.IOException;
import picocli.CommandLine.Mixin;

/**
 * A command that changes which GPU a VM has ({@code attach}, {@code detach}): the VM and GPU ({@link VmOptions}),
 * {@code --json}, the change printed one way, a failure worded {@code gpuforge VERB: ...} with its exit code.
 */
abstract class VmGpuCommand extends CliCommand {
    @Mixin
    VmOptions target = new VmOptions();

    VmGpuCommand(CliServices services) {
        super(services);
    }

    /** The command as the user types it. */
    abstract String verb();

    /** What the change is called once made ({@code attached}). */
    abstract String done();

    /** Makes the change on the VM found. */
    abstract GpuAttachResult change(VmOptions.Opened h, VmRef vm) throws BackendException;

    @Override
    public final Integer call() throws IOException {
        CliOutput o = services.output();
        try (VmOptions.Opened h = target.open(services)) {
            VmRef vm = target.vm(h.session);
            AttachCommand.print(o, done(), h.describe, vm, change(h, vm), json.enabled());
            return 0;
        } catch (BackendException | IllegalArgumentException e) {
            return failed(verb(), e);
        }
    }
}
