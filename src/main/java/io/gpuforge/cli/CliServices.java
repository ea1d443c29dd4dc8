package io.gpuforge.cli;

import io.gpuforge.app.AppPaths;
import io.gpuforge.app.HostService;
import java.nio.file.Path;
import java.util.Optional;

/** What the commands need: paths, output, and the services shared with the GUI. */
public final class CliServices {

    private final AppPaths paths;
    private final CliOutput output;
    private final java.io.InputStream stdin;

    public CliServices(AppPaths paths, CliOutput output, java.io.InputStream stdin) {
        this.paths = paths;
        this.output = output;
        this.stdin = stdin;
    }

    public AppPaths paths() {
        return paths;
    }

    public CliOutput output() {
        return output;
    }

    /** Standard input (passwords, listings from a pipe). */
    public java.io.InputStream stdin() {
        return stdin;
    }

    public HostService hosts(Optional<Path> sysroot) {
        return new HostService(sysroot, paths.configDir().resolve("known_hosts"), null);
    }
}
