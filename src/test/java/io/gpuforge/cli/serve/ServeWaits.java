package io.gpuforge.cli.serve;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.Callable;

/** What the tests of a running {@code gpuforge serve} share: a free port for it, and a wait for a state it reaches. */
final class ServeWaits {

    private ServeWaits() {
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Waits (90 s at most) until {@code done}; on time out fails with what {@code log} says. */
    static void waitFor(Callable<Boolean> done, Callable<String> log) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!ready(done)) {
            if (System.nanoTime() > until) {
                throw new AssertionError("timed out: " + log.call());
            }
            Thread.sleep(200);
        }
    }

    /** Whether it is done; not yet while the server does not answer (it is starting). */
    private static boolean ready(Callable<Boolean> done) {
        try {
            return done.call();
        } catch (Exception | AssertionError e) {
            return false;
        }
    }
}
