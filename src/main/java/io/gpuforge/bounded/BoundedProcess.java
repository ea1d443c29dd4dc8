package io.gpuforge.bounded;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs a local helper program (tar, cloud-localds) with a deadline and a cap on what it may print. Its output is
 * drained on a thread of its own from the start, so the deadline holds while the program still writes or writes
 * nothing; a program past either limit is killed with every process it started, and the
 * {@link BoundedReadException} says which limit it passed.
 */
public final class BoundedProcess {

    /** What the program printed (stdout and stderr together) and its exit code. */
    public record Output(int exitCode, String text) {
    }

    private BoundedProcess() {
    }

    public static Output run(List<String> command, Duration timeout, int maxBytes) throws IOException {
        return run(command, Optional.empty(), new ReadLimits(timeout, maxBytes));
    }

    /** Runs {@code command} in {@code directory} (else here), stdin empty, within {@code limits}. */
    public static Output run(List<String> command, Optional<Path> directory, ReadLimits limits) throws IOException {
        Duration timeout = limits.deadline();
        int maxBytes = (int) Math.min(Integer.MAX_VALUE - 8, limits.maxBytes());
        ProcessBuilder pb = ChildEnvironment.scrubbed(new ProcessBuilder(command)).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        directory.ifPresent(d -> pb.directory(d.toFile()));
        Process p = pb.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AtomicBoolean tooMuch = new AtomicBoolean();
        Thread reader = new Thread(() -> drain(p, out, maxBytes, tooMuch), "bounded-" + command.get(0));
        reader.setDaemon(true);
        reader.start();
        try {
            boolean exited = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!exited) {
                kill(p);
                throw new BoundedReadException(name(command), BoundedReadException.Kind.DEADLINE, limits, size(out),
                        name(command) + " did not finish within " + seconds(timeout) + " and was stopped");
            }
            reader.join(TimeUnit.SECONDS.toMillis(5));
            if (tooMuch.get()) {
                throw new BoundedReadException(name(command), BoundedReadException.Kind.TOO_LARGE, limits, size(out),
                        name(command) + " printed more than " + limits.sizeText() + " and was stopped");
            }
            synchronized (out) {
                return new Output(p.exitValue(), out.toString(StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            kill(p);
            Thread.currentThread().interrupt();
            throw new IOException(name(command) + " was interrupted", e);
        }
    }

    private static long size(ByteArrayOutputStream out) {
        synchronized (out) {
            return out.size();
        }
    }

    private static void drain(Process p, ByteArrayOutputStream out, int maxBytes, AtomicBoolean tooMuch) {
        byte[] buf = new byte[8192];
        try (InputStream in = p.getInputStream()) {
            int n;
            while ((n = in.read(buf)) > 0) {
                synchronized (out) {
                    if (out.size() + n > maxBytes) {
                        tooMuch.set(true);
                        break;
                    }
                    out.write(buf, 0, n);
                }
            }
            if (tooMuch.get()) {
                kill(p);
            }
        } catch (IOException e) {
            // the process went away; what was read is kept
        }
    }

    /** Kills {@code p} and everything it started (children first: once it is gone they are not its own). */
    public static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String name(List<String> command) {
        String c = command.get(0);
        return c.substring(c.lastIndexOf('/') + 1);
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
