package io.gpuforge.host;

import io.gpuforge.bounded.ChildEnvironment;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This machine: commands run as child processes of {@code /bin/sh}. Output is capped like over SSH; the time
 * limit holds whatever the command does (writes without end, never reads its input), and a command past it is
 * stopped together with every process it started.
 */
public final class LocalShell implements HostShell {

    public static final int STDERR_CAP = 64 * 1024;
    public static final int STDOUT_CAP = ProbeStream.MAX_BYTES + 1;
    private static final Logger LOG = LoggerFactory.getLogger(LocalShell.class);
    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(100);
    /** How long the output of an ended command is read on (a process it left behind may hold the pipe open). */
    private static final long GRACE = TimeUnit.SECONDS.toNanos(2);

    @Override
    public String describe() {
        return "local";
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout) throws ProbeException {
        return execute(command, stdin, timeout, null);
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout, LineListener lines) throws ProbeException {
        return execute(command, stdin, timeout, lines);
    }

    private Result execute(String command, byte[] stdin, Duration timeout, LineListener lines) throws ProbeException {
        Process p;
        try {
            p = ChildEnvironment.scrubbed(new ProcessBuilder("/bin/sh", "-c", command)).start();
        } catch (IOException e) {
            throw new ProbeException("Cannot start /bin/sh: " + e.getMessage(), e);
        }
        LineRelay relay = lines == null ? null : new LineRelay();
        OutputCapture out = new OutputCapture(STDOUT_CAP, relay, false);
        OutputCapture err = new OutputCapture(STDERR_CAP, relay, true);
        daemon("gpuforge-local-stdin", () -> feed(p.getOutputStream(), stdin));
        Thread outPump = daemon("gpuforge-local-stdout", () -> pump(p.getInputStream(), out));
        Thread errPump = daemon("gpuforge-local-stderr", () -> pump(p.getErrorStream(), err));
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    stop(p);
                    throw new CommandTimeoutException("'" + command + "' did not finish within "
                            + CommandTimeoutException.human(timeout) + "; it was stopped, with every process it started",
                            false);
                }
                if (relay == null) {
                    if (p.waitFor(left, TimeUnit.NANOSECONDS)) {
                        break;
                    }
                } else {
                    relay.deliver(lines, Math.min(left, TICK));
                    if (!p.isAlive()) {
                        break;
                    }
                }
            }
            long until = System.nanoTime() + GRACE;
            while ((outPump.isAlive() || errPump.isAlive()) && System.nanoTime() < until) {
                if (relay == null) {
                    outPump.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime())));
                    errPump.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime())));
                } else {
                    relay.deliver(lines, TICK / 2);
                }
            }
            if (outPump.isAlive() || errPump.isAlive()) {
                LOG.debug("'{}' ended but a process it left behind still holds its output open", command);
            }
            if (relay != null) {
                relay.deliver(lines, 0);
            }
            return new Result(p.exitValue(), out.bytes(), err.text());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop(p);
            throw new ProbeException("Interrupted while running '" + command + "'", e);
        }
    }

    private static Thread daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void feed(OutputStream in, byte[] stdin) {
        try (in) {
            if (stdin != null) {
                in.write(stdin);
            }
        } catch (IOException e) {
            // the command may exit without reading all of stdin; its exit code tells
        }
    }

    private static void pump(InputStream from, OutputCapture to) {
        byte[] buf = new byte[8192];
        try (from) {
            int n;
            while ((n = from.read(buf)) > 0) {
                to.write(buf, 0, n);
            }
        } catch (IOException e) {
            // the stream closed with the process; what was read is kept
        } finally {
            to.finish();
        }
    }

    /** Stops a command and every process it started. */
    static void stop(Process p) {
        List<ProcessHandle> tree = p.descendants().toList();
        for (int i = tree.size() - 1; i >= 0; i--) {
            tree.get(i).destroyForcibly();
        }
        p.destroyForcibly();
    }

    @Override
    public void close() {
        // nothing held
    }
}
