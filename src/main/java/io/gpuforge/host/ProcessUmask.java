package io.gpuforge.host;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's file mode creation mask ({@code umask(2)}, through JNA), which every file and directory the process
 * creates from then on obeys, whoever creates it: Java, SQLite's WAL and SHM files, logback's rolled logs, a program
 * the process starts. Linux and macOS; elsewhere nothing changes. Never throws.
 */
public final class ProcessUmask {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessUmask.class);

    private ProcessUmask() {
    }

    /** Sets the mask; returns the one before it, or empty where it could not be set. */
    public static OptionalInt set(int mask) {
        if (!Platform.isLinux() && !Platform.isMac()) {
            return OptionalInt.empty();
        }
        try {
            Function umask = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME).getFunction("umask");
            return OptionalInt.of(umask.invokeInt(new Object[] {mask & 0777}));
        } catch (LinkageError | RuntimeException e) {
            LOG.warn("The file mode creation mask could not be set to {}: {}", Integer.toOctalString(mask),
                    e.toString());
            return OptionalInt.empty();
        }
    }
}
