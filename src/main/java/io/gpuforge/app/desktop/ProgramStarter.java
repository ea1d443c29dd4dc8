package io.gpuforge.app.desktop;

import java.io.IOException;

/**
 * Starts a program the user asked for (a VM's console, a browser, the file manager). The window's starter runs it
 * from a thread that never gave way to the window ({@link io.gpuforge.app.AppExecutors#startProgram}): a program inherits its
 * starter's nice value on Linux and could never take it back.
 */
@FunctionalInterface
public interface ProgramStarter {

    Process start(ProcessBuilder program) throws IOException;

    /** Starts it from the calling thread (the command line; tests). */
    static ProgramStarter direct() {
        return ProcessBuilder::start;
    }
}
