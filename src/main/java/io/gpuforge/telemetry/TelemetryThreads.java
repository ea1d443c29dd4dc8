package io.gpuforge.telemetry;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread pool every GPU source shares: a timer thread that only says when ({@code gpuforge-telemetry-timer})
 * and a pool of daemon threads that do the work ({@code gpuforge-telemetry-N}: polls, stream readers, store writes),
 * created as needed and reused. Sources never start threads of their own.
 */
public final class TelemetryThreads implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TelemetryThreads.class);
    private final ScheduledExecutorService timer;
    private final ExecutorService pool;

    public TelemetryThreads() {
        AtomicInteger n = new AtomicInteger();
        this.timer = Executors.newSingleThreadScheduledExecutor(factory(r -> "gpuforge-telemetry-timer"));
        this.pool = Executors.newCachedThreadPool(factory(r -> "gpuforge-telemetry-" + n.incrementAndGet()));
    }

    private interface Namer {
        String name(Runnable r);
    }

    private static ThreadFactory factory(Namer namer) {
        return r -> {
            Thread t = new Thread(r, namer.name(r));
            t.setDaemon(true);
            t.setUncaughtExceptionHandler((th, e) -> LOG.error("Uncaught in {}", th.getName(), e));
            return t;
        };
    }

    public ScheduledExecutorService timer() {
        return timer;
    }

    public ExecutorService pool() {
        return pool;
    }

    /** Whether {@code t} is one of these threads (for tests and benchmarks that measure them). */
    public static boolean isTelemetryThread(Thread t) {
        return t.getName().startsWith("gpuforge-telemetry-");
    }

    @Override
    public void close() {
        timer.shutdownNow();
        pool.shutdownNow();
        try {
            pool.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
