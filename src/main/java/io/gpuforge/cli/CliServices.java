package io.gpuforge.cli;

import io.gpuforge.app.AppPaths;
import io.gpuforge.app.HostService;
import java.nio.file.Path;
import java.util.Optional;

/** What the commands need: paths, output, and the services shared with the GUI. */
public final class CliServices {

    private final AppPaths paths;
    private final CliOutput output;

    public CliServices(AppPaths paths, CliOutput output) {
        this.paths = paths;
        this.output = output;
    }

    public AppPaths paths() {
        return paths;
    }

    public CliOutput output() {
        return output;
    }

    public HostService hosts(Optional<Path> sysroot) {
        return new HostService(sysroot);
    }
}
