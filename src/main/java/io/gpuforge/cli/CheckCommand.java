package io.gpuforge.cli;

import picocli.CommandLine.Command;

/** {@code gpuforge check}. */
@Command(name = "check", mixinStandardHelpOptions = true, description = "The readiness checks of the passthrough engine (not in this build yet).")
final class CheckCommand extends NotInThisBuild {

    CheckCommand(CliServices services) {
        super(services, "check", "the readiness checks of the passthrough engine");
    }
}
