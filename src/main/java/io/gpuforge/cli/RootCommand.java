package io.gpuforge.cli;

import picocli.CommandLine.Command;
import io.gpuforge.cli.host.InventoryCommand;
import io.gpuforge.cli.host.IommuCommand;
import io.gpuforge.cli.host.SnapshotCommand;
import io.gpuforge.cli.passthrough.ApplyCommand;
import io.gpuforge.cli.passthrough.AttachCommand;
import io.gpuforge.cli.passthrough.CheckCommand;
import io.gpuforge.cli.passthrough.DetachCommand;
import io.gpuforge.cli.passthrough.PassthroughCommand;
import io.gpuforge.cli.passthrough.PlanCommand;
import io.gpuforge.cli.passthrough.RollbackCommand;
import io.gpuforge.cli.passthrough.VerifyCommand;
import io.gpuforge.cli.diagnose.DiagnoseCommand;
import io.gpuforge.cli.alert.AlertCommand;
import io.gpuforge.cli.serve.ServeCommand;
import io.gpuforge.cli.share.CtCommand;
import io.gpuforge.cli.share.ShareCommand;
import io.gpuforge.cli.gpu.GpuCommand;
import io.gpuforge.cli.vm.VmCommand;
import io.gpuforge.cli.connections.ConnectionCommand;
import io.gpuforge.cli.connections.LinkCommand;

/** {@code gpuforge}: the same features as the desktop app, for scripts. */
@Command(name = "gpuforge", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "GPUForge: GPU passthrough, VMs and GPU telemetry for Proxmox VE and KVM/libvirt hosts.",
        subcommands = {InventoryCommand.class, IommuCommand.class, SnapshotCommand.class, CheckCommand.class, PlanCommand.class,
                       ApplyCommand.class, RollbackCommand.class, VerifyCommand.class, AttachCommand.class,
                       DetachCommand.class, PassthroughCommand.class, DiagnoseCommand.class, VmCommand.class, CtCommand.class, ShareCommand.class,
                       GpuCommand.class, ServeCommand.class, AlertCommand.class, LinkCommand.class, ConnectionCommand.class, picocli.CommandLine.HelpCommand.class},
        footer = {"", "Exit codes: 0 ok, 1 error, 2 usage; gpuforge diagnose: 3 no known cause."})
public final class RootCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
