package io.gpuforge.host;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lowers the calling thread's share of the processor, so that work in the background gives way to the window's
 * threads when both want the processor at once, and takes all of it when the window is idle. On Linux a thread's
 * nice value is its own ({@code setpriority(PRIO_PROCESS, 0, n)} changes the calling thread only, through JNA), and
 * a thread it starts inherits it; elsewhere the JVM's thread priority is lowered (Windows follows it; macOS ignores
 * it). Raising a nice value needs no privilege. If the C library cannot be reached the thread is left as it was.
 */
public final class ThreadPriority {

    private static final Logger LOG = LoggerFactory.getLogger(ThreadPriority.class);
    private static final int PRIO_PROCESS = 0;
    private static final int MAX_NICE = 19;

    private ThreadPriority() {
    }

    /**
     * Makes the calling thread {@code by} nice levels nicer than it is (at most 19); returns whether it was lowered.
     * The first call loads JNA (about 0.1 s of processor time): call it off the start-up path.
     */
    public static boolean lowerCurrentThread(int by) {
        if (by <= 0) {
            return false;
        }
        Thread.currentThread().setPriority(Math.max(Thread.MIN_PRIORITY, Thread.NORM_PRIORITY - 2));
        if (!Platform.isLinux()) {
            return false;
        }
        try {
            int now = Libc.GETPRIORITY.invokeInt(new Object[] {PRIO_PROCESS, 0});
            int rc = Libc.SETPRIORITY.invokeInt(new Object[] {PRIO_PROCESS, 0, Math.min(MAX_NICE, now + by)});
            return rc == 0;
        } catch (LinkageError | RuntimeException e) {
            LOG.debug("The thread {} keeps its priority: {}", Thread.currentThread().getName(), e.toString());
            return false;
        }
    }

    /** The calling thread's nice value on Linux (0 elsewhere or when it cannot be read). */
    public static int currentNice() {
        if (!Platform.isLinux()) {
            return 0;
        }
        try {
            return Libc.GETPRIORITY.invokeInt(new Object[] {PRIO_PROCESS, 0});
        } catch (LinkageError | RuntimeException e) {
            return 0;
        }
    }

    /** The C library's two functions, looked up on first use. */
    private static final class Libc {
        static final Function GETPRIORITY = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME).getFunction("getpriority");
        static final Function SETPRIORITY = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME).getFunction("setpriority");
    }
}
