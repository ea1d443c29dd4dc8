package io.gpuforge.cli;

import picocli.CommandLine.Command;

/** {@code gpuforge plan}. */
@Command(name = "plan", mixinStandardHelpOptions = true, description = "Passthrough planning (not in this build yet).")
final class PlanCommand extends NotInThisBuild {

    PlanCommand(CliServices services) {
        super(services, "plan", "passthrough planning");
    }
}
