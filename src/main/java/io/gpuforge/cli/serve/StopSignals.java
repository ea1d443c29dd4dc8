package io.gpuforge.cli.serve;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIGTERM (systemd's stop, {@code kill}) and SIGINT (Ctrl-C) end the wait of {@code gpuforge serve}, so that it closes
 * its watches and its store on its own thread and exits 0, instead of the JVM's default of running shutdown hooks
 * and exiting 143. Where the JVM does not offer signal handlers ({@code sun.misc.Signal}), a shutdown hook does the
 * same and waits for the stop to finish.
 */
final class StopSignals {

    private static final Logger LOG = LoggerFactory.getLogger(StopSignals.class);
    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicReference<String> why = new AtomicReference<>("");

    StopSignals() {
        boolean handled = true;
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), s -> request("SIG" + s.getName()));
            } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
                LOG.debug("No handler for SIG{}: {}", name, e.toString());
                handled = false;
            }
        }
        if (!handled) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                request("shutdown");
                try {
                    stopped.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "gpuforge-serve-stop"));
        }
    }

    /** Ends the wait (a signal, or the duration asked for ran out). */
    void request(String reason) {
        why.compareAndSet("", reason);
        stop.countDown();
    }

    /** Waits until asked to stop, at most {@code millis} (negative: without limit); returns why it stopped. */
    String await(long millis) throws InterruptedException {
        if (millis < 0) {
            stop.await();
        } else if (!stop.await(millis, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            request("the duration asked for");
        }
        return why.get();
    }

    /** The stop is done: a shutdown hook waiting for it may let the JVM end. */
    void done() {
        stopped.countDown();
    }
}
