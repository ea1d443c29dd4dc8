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
 * a thread it starts inherits it, as does a program it starts; elsewhere the JVM's thread priority is lowered (Windows
 * follows it; macOS ignores it). The level is set against the process's main thread, not the calling thread's own
 * level: a thread started by a lowered one, lowered again, stays where the first one is. Raising a nice value needs no
 * privilege; lowering it again does, so a thread lowered once stays lowered. If the C library cannot be reached the
 * thread is left as it was.
 */
public final class ThreadPriority {

    private static final Logger LOG = LoggerFactory.getLogger(ThreadPriority.class);
    private static final int PRIO_PROCESS = 0;
    private static final int MAX_NICE = 19;

    private ThreadPriority() {
    }

    /**
     * Makes the calling thread {@code levels} nice levels nicer than the process's main thread (at most 19; a thread
     * that is nicer already stays as it is); returns whether it is there now. The first call loads JNA (about 0.1 s
     * of processor time): call it off the start-up path. Never throws.
     */
    public static boolean lowerCurrentThread(int levels) {
        if (levels <= 0) {
            return false;
        }
        try {
            Thread.currentThread().setPriority(Math.max(Thread.MIN_PRIORITY, Thread.NORM_PRIORITY - 2));
            if (!Platform.isLinux()) {
                return false;
            }
            int target = Math.min(MAX_NICE, mainThreadNice() + levels);
            int now = Libc.GETPRIORITY.invokeInt(new Object[] {PRIO_PROCESS, 0});
            return now >= target || Libc.SETPRIORITY.invokeInt(new Object[] {PRIO_PROCESS, 0, target}) == 0;
        } catch (LinkageError | RuntimeException e) {
            LOG.debug("The thread {} keeps its priority: {}", Thread.currentThread().getName(), e.toString());
            return false;
        }
    }

    /** The calling thread's nice value on Linux (0 elsewhere or when it cannot be read). */
    public static int currentNice() {
        try {
            return Platform.isLinux() ? Libc.GETPRIORITY.invokeInt(new Object[] {PRIO_PROCESS, 0}) : 0;
        } catch (LinkageError | RuntimeException e) {
            return 0;
        }
    }

    /** Whether the calling thread is nicer than the process's main thread (what a program it starts would inherit). */
    public static boolean currentThreadLowered() {
        try {
            return Platform.isLinux() && Libc.GETPRIORITY.invokeInt(new Object[] {PRIO_PROCESS, 0}) > mainThreadNice();
        } catch (LinkageError | RuntimeException e) {
            return false;
        }
    }

    /** On Linux, PRIO_PROCESS with the process id names the thread of that id: the main thread. */
    private static int mainThreadNice() {
        return Libc.GETPRIORITY.invokeInt(new Object[] {PRIO_PROCESS, (int) ProcessHandle.current().pid()});
    }

    /** The C library's two functions, looked up on first use. */
    private static final class Libc {
        static final Function GETPRIORITY = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME)
                .getFunction("getpriority");
        static final Function SETPRIORITY = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME)
                .getFunction("setpriority");
    }
}
