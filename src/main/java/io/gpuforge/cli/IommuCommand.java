package io.gpuforge.cli;

import picocli.CommandLine.Command;

/** {@code gpuforge iommu}. */
@Command(name = "iommu", mixinStandardHelpOptions = true,
        description = "List IOMMU groups with their devices and GPU isolation (not in this build yet).")
final class IommuCommand extends NotInThisBuild {

    IommuCommand(CliServices services) {
        super(services, "iommu", "listing IOMMU groups");
    }
}
