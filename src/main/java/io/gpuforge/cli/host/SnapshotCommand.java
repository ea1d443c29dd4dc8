package io.gpuforge.cli.host;

import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.domain.host.HostException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HostSource;

/** {@code gpuforge snapshot}: a host's relevant files as a sysroot archive, for support and for --sysroot. */
@Command(name = "snapshot", mixinStandardHelpOptions = true,
        description = "Capture a host's passthrough-relevant files into a .tar.gz that --sysroot reads back.")
public final class SnapshotCommand extends CliCommand {
    @Mixin
    HostSource source = new HostSource();

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE.tar.gz", description = "Where to write it.")
    Path output;

    SnapshotCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws IOException {
        if (source.which.listing != null || source.which.sysroot != null) {
            services.output().error("gpuforge snapshot: take it from --local, --ssh USER@HOST or --host NAME");
            return 2;
        }
        java.nio.file.Path parent = output.toAbsolutePath().getParent();
        if (java.nio.file.Files.isDirectory(output) || (parent != null && !java.nio.file.Files.isDirectory(parent))) {
            services.output().error("gpuforge snapshot: --output " + output + (java.nio.file.Files.isDirectory(output)
                    ? " is a directory: give the file to write, such as " + output.resolve("host.tar.gz")
                    : ": its directory " + parent + " does not exist"));
            return 2;
        }
        String from;
        try {
            from = source.hosts(services).snapshot(source.target(services), output, HostSource::refuseUnknownKey);
        } catch (HostException e) {
            services.output().error("gpuforge snapshot: " + e.getMessage());
            return 1;
        }
        if (json.enabled()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("source", from);
            m.put("snapshot", output.toAbsolutePath().toString());
            services.output().json(m);
        } else {
            services.output().line("Snapshot of " + from + " written to " + output.toAbsolutePath()
                    + " (read it back with --sysroot " + output + ")");
        }
        return 0;
    }
}
