package io.gpuforge.cli.vm;

import io.gpuforge.app.AppContext;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HypervisorTarget;
import io.gpuforge.cli.common.VmTarget;
import io.gpuforge.domain.BackendException;
import java.io.IOException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * A {@code gpuforge vm} subcommand on one VM: the VM by id or name, where it is ({@link HypervisorTarget}) and
 * {@code --json}. The prologue (the context, the session, the VM found or refused) and the error line are here once:
 * every such command finds a VM, and words a failure, the same way.
 */
abstract class OneVmCommand extends CliCommand {
    @Parameters(index = "0", paramLabel = "VM", description = "The VM's id or name.")
    String vm;
    @Mixin
    HypervisorTarget target = new HypervisorTarget();

    OneVmCommand(CliServices services) {
        super(services);
    }

    /** The subcommand as the user types it ({@code config}, {@code remove-snippet}). */
    abstract String verb();

    /** The work on the VM found; returns the exit code. */
    abstract int run(AppContext ctx, VmTarget on) throws Exception;

    @Override
    public final Integer call() throws Exception {
        try (AppContext ctx = VmCommand.context(services)) {
            return run(ctx, target.vm(services, ctx, vm));
        } catch (BackendException | IllegalArgumentException | IllegalStateException | IOException e) {
            return failed("vm " + verb(), e);
        }
    }
}
