package io.gpuforge.app;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's two thread pools, with named daemon threads: {@code gpuforge-bg-N} for blocking work
 * (REST, libvirt, SSH, SQLite) and {@code gpuforge-timer} for debounces and periodic polling.
 * Nothing blocking runs on the FX thread; everything blocking runs here.
 */
public final class AppExecutors implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AppExecutors.class);

    private final ExecutorService background;
    private final ScheduledExecutorService scheduler;

    public AppExecutors(Thread.UncaughtExceptionHandler handler) {
        this.background = Executors.newCachedThreadPool(factory("gpuforge-bg-", handler));
        this.scheduler = Executors.newSingleThreadScheduledExecutor(factory("gpuforge-timer", handler));
    }

    private static ThreadFactory factory(String prefix, Thread.UncaughtExceptionHandler handler) {
        AtomicInteger n = new AtomicInteger();
        boolean numbered = prefix.endsWith("-");
        return r -> {
            Thread t = new Thread(r, numbered ? prefix + n.incrementAndGet() : prefix);
            t.setDaemon(true);
            t.setUncaughtExceptionHandler(handler);
            return t;
        };
    }

    public ExecutorService background() {
        return background;
    }

    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    @Override
    public void close() {
        scheduler.shutdown();
        background.shutdown();
        try {
            if (!background.awaitTermination(2, TimeUnit.SECONDS)) {
                LOG.warn("Background tasks still running at exit; interrupting them");
                background.shutdownNow();
            }
            scheduler.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
