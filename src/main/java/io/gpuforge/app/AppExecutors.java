package io.gpuforge.app;

import io.gpuforge.host.ThreadPriority;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * start, the command line) nothing is changed. Programs the user asks for are started from {@code gpuforge-launcher},
 * which never gives way ({@link #startProgram}): a program inherits its starter's nice value.
 */
public final class AppExecutors implements AutoCloseable {

    /** How many nice levels the background threads give way by, once the window is up. */
    public static final int NICER = 5;
    private static final Logger LOG = LoggerFactory.getLogger(AppExecutors.class);
    /** Whether the calling pool thread has lowered itself already. */
    private static final ThreadLocal<Boolean> LOWERED = ThreadLocal.withInitial(() -> false);

    private final ThreadPoolExecutor background;
    private final ScheduledThreadPoolExecutor scheduler;
    /** Started with the pools, by the thread that makes them, and never lowered: it starts the user's programs. */
    private final ThreadPoolExecutor launcher;
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
        this.launcher = new ThreadPoolExecutor(1, 1, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                factory("gpuforge-launcher", handler));
        launcher.prestartCoreThread(); // now, from this thread: a thread made later by a lowered one would inherit it
    }

    /**
     * Starts a program the user asked for, at the priority the process has: from the calling thread while nothing
     * has given way or when it did not, else from {@code gpuforge-launcher}. Blocks until it is started.
     */
    public Process startProgram(ProcessBuilder program) throws IOException {
        if (!givingWay || !ThreadPriority.currentThreadLowered()) {
            return program.start();
        }
        try {
            return launcher.submit(program::start).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException) {
                throw (IOException) e.getCause();
            }
            throw new IOException("The program could not be started: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while starting " + program.command().get(0), e);
        } catch (TimeoutException | RejectedExecutionException e) {
            throw new IOException(program.command().get(0) + " could not be started: " + e, e);
        }
    }

    /**
     * From now on the background threads give way to the window's (the main window calls it once it has laid itself
     * out); whichever lowers itself first loads JNA (a task is queued at once for that).
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
        launcher.shutdown();
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
