package io.gpuforge.cli;

import picocli.CommandLine.Command;

/** {@code gpuforge verify}. */
@Command(name = "verify", mixinStandardHelpOptions = true, description = "Post-reboot verification (not in this build yet).")
final class VerifyCommand extends NotInThisBuild {

    VerifyCommand(CliServices services) {
        super(services, "verify", "post-reboot verification");
    }
}
