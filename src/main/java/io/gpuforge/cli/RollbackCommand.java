package io.gpuforge.cli;

import picocli.CommandLine.Command;

/** {@code gpuforge rollback}. */
@Command(name = "rollback", mixinStandardHelpOptions = true, description = "Rolling back an applied plan (not in this build yet).")
final class RollbackCommand extends NotInThisBuild {

    RollbackCommand(CliServices services) {
        super(services, "rollback", "rolling back an applied plan");
    }
}
