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

    /**
     * One line of standard input, read byte by byte so nothing after it is swallowed by a buffer
     * (a password line may be followed by a confirmation). Null at end of input.
     */
    public String readLine() throws java.io.IOException {
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        int b;
        while ((b = stdin.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                line.write(b);
            }
        }
        return b < 0 && line.size() == 0 ? null : line.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    public HostService hosts(Optional<Path> sysroot) {
        return new HostService(sysroot, paths.configDir().resolve("known_hosts"), null);
    }
}
