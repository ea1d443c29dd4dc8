package io.gpuforge.app.desktop;

import io.gpuforge.bounded.ChildEnvironment;
import io.gpuforge.app.host.OsFamily;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Opens a folder in the desktop's file manager. Blocking for a moment; call off the FX thread. */
public final class DesktopOpener {

    private final OsFamily os;
    private final ProgramStarter starter;

    /** @param starter starts the file manager ({@link io.gpuforge.app.AppExecutors#startProgram}) */
    public DesktopOpener(ProgramStarter starter) {
        this(OsFamily.current(), starter);
    }

    DesktopOpener(OsFamily os) {
        this(os, ProgramStarter.direct());
    }

    private DesktopOpener(OsFamily os, ProgramStarter starter) {
        this.os = os;
        this.starter = starter;
    }

    List<String> command(Path folder) {
        String p = folder.toAbsolutePath().toString();
        switch (os) {
            case WINDOWS:
                return List.of("explorer.exe", p);
            case MAC:
                return List.of("open", p);
            default:
                return List.of("xdg-open", p);
        }
    }

    public void open(Path folder) throws IOException {
        Files.createDirectories(folder);
        Process p = starter.start(ChildEnvironment.scrubbed(new ProcessBuilder(command(folder))).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD));
        try {
            // xdg-open returns quickly once the file manager is asked; a non-zero exit means nobody could.
            if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() != 0 && os != OsFamily.WINDOWS) {
                throw new IOException(command(folder).get(0) + " exited with " + p.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
