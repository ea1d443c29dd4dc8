package io.gpuforge.boot;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Measures JVM start → first frame (the first pulse after the main window is shown), and the processor time the
 * process had used by then: a figure that does not grow with the load of the machine the way the elapsed time does.
 */
public final class StartupClock {

    /** Clock ticks per second of /proc/self/stat's utime and stime: USER_HZ, 100 on every Linux architecture. */
    private static final long TICKS_PER_SECOND = 100;

    private final long jvmStartMillis;
    private final Path procStat;
    private volatile long firstFrameMillis = -1;

    public StartupClock() {
        this(ManagementFactory.getRuntimeMXBean().getStartTime(), Path.of("/proc/self/stat"));
    }

    StartupClock(long jvmStartMillis, Path procStat) {
        this.jvmStartMillis = jvmStartMillis;
        this.procStat = procStat;
    }

    /** When the JVM started, in epoch milliseconds. */
    public long jvmStartMillis() {
        return jvmStartMillis;
    }

    /** Milliseconds from JVM start to the first frame; -1 before it. */
    public long firstFrameMs() {
        long f = firstFrameMillis;
        return f < 0 ? -1 : f - jvmStartMillis;
    }

    /** Records the first frame; later calls are ignored. Returns the elapsed milliseconds. */
    public long markFirstFrame(long nowMillis) {
        if (firstFrameMillis < 0) {
            firstFrameMillis = nowMillis;
        }
        return firstFrameMillis - jvmStartMillis;
    }

    /**
     * Processor time (user and system, all threads) this process has used so far, in milliseconds; -1 where the
     * system does not say (no /proc: Windows, macOS).
     */
    public long cpuMillis() {
        String stat;
        try {
            stat = new String(io.gpuforge.bounded.BoundedStreams.readAll(procStat, 64 * 1024), StandardCharsets.US_ASCII);
        } catch (IOException | UnsupportedOperationException e) {
            return -1;
        }
        // pid (comm) state ppid …: comm may hold spaces and parentheses, so count fields after the last ')'
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return -1;
        }
        String[] f = stat.substring(close + 1).trim().split("\\s+");
        // after comm: state is field 3 of the man page, utime 14 and stime 15, i.e. indexes 11 and 12 here
        if (f.length < 13) {
            return -1;
        }
        try {
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 1000 / TICKS_PER_SECOND;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
