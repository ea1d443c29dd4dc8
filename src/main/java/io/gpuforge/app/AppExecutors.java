package io.gpuforge.app;

import io.gpuforge.host.ThreadPriority;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's two thread pools, with named daemon threads: {@code gpuforge-bg-N} for blocking work
 * (REST, libvirt, SSH, SQLite) and {@code gpuforge-timer} for debounces and periodic polling.
 * Nothing blocking runs on the FX thread; everything blocking runs here.
 *
 * <p>Once the main window has drawn itself ({@link #giveWayToTheWindow()}), each of their threads lowers its priority
 * before its next task ({@link ThreadPriority}, {@link #NICER} nice levels): on a machine with few cores, reading a
 * 2,000-VM cluster's configurations, its TLS and JSON, then takes the processor only when the window's threads do not
 * want it, and the window's pulses keep their pace. Threads these start inherit it. Before that (the window's
 * start, the command line) nothing is changed.
 */
public final class AppExecutors implements AutoCloseable {

    /** How many nice levels the background threads give way by, once the window is up. */
    public static final int NICER = 5;
    private static final Logger LOG = LoggerFactory.getLogger(AppExecutors.class);
    /** Whether the calling pool thread has lowered itself already. */
    private static final ThreadLocal<Boolean> LOWERED = ThreadLocal.withInitial(() -> false);

    private final ThreadPoolExecutor background;
    private final ScheduledThreadPoolExecutor scheduler;
    private volatile boolean givingWay;

    public AppExecutors(Thread.UncaughtExceptionHandler handler) {
        this.background = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60L, TimeUnit.SECONDS, new SynchronousQueue<>(),
                factory("gpuforge-bg-", handler)) {
            @Override
            protected void beforeExecute(Thread t, Runnable r) {
                lowerIfGivingWay();
            }
        };
        this.scheduler = new ScheduledThreadPoolExecutor(1, factory("gpuforge-timer", handler)) {
            @Override
            protected void beforeExecute(Thread t, Runnable r) {
                lowerIfGivingWay();
            }
        };
    }

    /**
     * From now on the background threads give way to the window's (the window calls it once its first frame is
     * drawn); the first one to lower itself loads JNA, in a task of its own.
     */
    public void giveWayToTheWindow() {
        if (!givingWay) {
            givingWay = true;
            try {
                background.execute(() -> LOG.debug("Background threads give way to the window (nice +{}, {} now)",
                        NICER, ThreadPriority.currentNice()));
            } catch (RejectedExecutionException e) {
                LOG.debug("The background threads are shut down already: nothing gives way");
            }
        }
    }

    /** Whether the background threads give way to the window's ({@link #giveWayToTheWindow()}). */
    public boolean givingWay() {
        return givingWay;
    }

    private void lowerIfGivingWay() {
        if (givingWay && !LOWERED.get()) {
            LOWERED.set(true);
            ThreadPriority.lowerCurrentThread(NICER);
        }
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
