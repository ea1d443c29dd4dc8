package io.gpuforge.telemetry;

import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the HTTP servers of this process (the Prometheus endpoint, the Demo lab's simulated Proxmox API) hold for a
 * client before it has been checked: at most {@value #MAX_CONNECTIONS} connections (more are closed as they are
 * accepted), {@value #REQUEST_SECONDS} s to send a request (a connection that sends nothing, or half its headers, is
 * closed then), {@value #RESPONSE_SECONDS} s to take an answer, a listen backlog of {@value #BACKLOG}, and a pool of
 * {@value #THREADS} threads with {@value #QUEUE} waiting requests (more are closed, not queued for ever).
 *
 * <p>The JDK's server reads its limits from system properties once, when its first server is made: {@link #install()}
 * runs first thing in {@code main}, before anything can make one; properties already given ({@code -D}) are kept.
 */
public final class ServeLimits {

    /** Connections held at once, over every server of the process. */
    public static final int MAX_CONNECTIONS = 100;
    /** Seconds a client has to send its request (line, headers and body) once it has connected. */
    public static final int REQUEST_SECONDS = 10;
    /** Seconds an answer may take to go out (collecting the metrics included). */
    public static final int RESPONSE_SECONDS = 15;
    /** Connections the kernel keeps waiting for their accept. */
    public static final int BACKLOG = 128;
    /** Threads that read requests and answer them, per server. */
    public static final int THREADS = 8;
    /** Requests read in full that wait for a thread, per server. */
    public static final int QUEUE = 32;

    private static final Map<String, String> PROPERTIES = Map.of(
            "jdk.httpserver.maxConnections", Integer.toString(MAX_CONNECTIONS),
            "sun.net.httpserver.maxReqTime", Integer.toString(REQUEST_SECONDS),
            "sun.net.httpserver.maxRspTime", Integer.toString(RESPONSE_SECONDS),
            // how often connections that never sent a byte are looked at (the JDK's default: every 10 s)
            "sun.net.httpserver.clockTick", "1000",
            "sun.net.httpserver.timerMillis", "1000");

    private ServeLimits() {
    }

    /** Sets the JDK server's limits for this process, unless given on the command line. */
    public static void install() {
        PROPERTIES.forEach((k, v) -> {
            if (System.getProperty(k) == null) {
                System.setProperty(k, v);
            }
        });
    }

    /** A server's own pool: bounded in threads and in waiting work; what does not fit is refused (closed). */
    public static ThreadPoolExecutor pool(String name) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, 5, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE), r -> {
                    Thread t = new Thread(r, name + "-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        // idle threads go after 5 s: a burst does not leave its threads behind
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
