package io.gpuforge.cli;

import picocli.CommandLine.Command;

/** {@code gpuforge gpu}. */
@Command(name = "gpu", mixinStandardHelpOptions = true, description = "GPU telemetry (not in this build yet).")
final class GpuCommand extends NotInThisBuild {

    GpuCommand(CliServices services) {
        super(services, "gpu", "GPU telemetry");
    }
}
