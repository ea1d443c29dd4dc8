package io.gpuforge.cli;

import picocli.CommandLine.Command;

/** {@code gpuforge apply}. */
@Command(name = "apply", mixinStandardHelpOptions = true, description = "Applying a passthrough plan (not in this build yet).")
final class ApplyCommand extends NotInThisBuild {

    ApplyCommand(CliServices services) {
        super(services, "apply", "applying a passthrough plan");
    }
}
