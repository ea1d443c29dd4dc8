package io.gpuforge.cli;

import picocli.CommandLine.Command;

/** {@code gpuforge vm}. */
@Command(name = "vm", mixinStandardHelpOptions = true, description = "VM management (not in this build yet).")
final class VmCommand extends NotInThisBuild {

    VmCommand(CliServices services) {
        super(services, "vm", "VM management");
    }
}
