package io.gpuforge.boot;

import java.lang.management.ManagementFactory;

/** Measures JVM start → first frame (the first pulse after the main window is shown). */
public final class StartupClock {

    private final long jvmStartMillis;
    private volatile long firstFrameMillis = -1;

    public StartupClock() {
        this(ManagementFactory.getRuntimeMXBean().getStartTime());
    }

    StartupClock(long jvmStartMillis) {
        this.jvmStartMillis = jvmStartMillis;
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
}
