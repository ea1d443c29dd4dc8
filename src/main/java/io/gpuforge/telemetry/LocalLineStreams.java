package io.gpuforge.telemetry;

import io.gpuforge.bounded.ChildEnvironment;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Long-lived commands as child processes of this computer; their output is read on the shared telemetry pool
 * (one blocked reader per running command, which is idle between lines).
 */
public final class LocalLineStreams implements LineStreams {

    static final int STDERR_CAP = 16 * 1024;
    static final int MAX_LINE = 64 * 1024;
    private final ExecutorService pool;

    public LocalLineStreams(ExecutorService pool) {
        this.pool = pool;
    }

    @Override
    public String describe() {
        return "local";
    }

    @Override
    public Running start(String command, Sink sink) throws IOException {
        Process p = ChildEnvironment.scrubbed(new ProcessBuilder("/bin/sh", "-c", command))
                .redirectInput(ProcessBuilder.Redirect.PIPE).start();
        p.getOutputStream().close();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        AtomicBoolean stopped = new AtomicBoolean();
        pool.execute(() -> drain(p.getErrorStream(), err));
        pool.execute(() -> {
            String partial = pump(p.getInputStream(), sink);
            int code;
            try {
                code = p.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                code = -1;
            }
            String stderr;
            synchronized (err) {
                stderr = err.toString(StandardCharsets.UTF_8);
            }
            if (!stopped.get()) {
                sink.ended(code, partial, stderr);
            }
        });
        return () -> {
            if (stopped.compareAndSet(false, true)) {
                stop(p);
            }
        };
    }

    /** Hands complete lines to the sink; returns what came after the last line end. */
    static String pump(InputStream in, Sink sink) {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    byte b = buf[i];
                    if (b == '\n') {
                        String s = line.toString(StandardCharsets.UTF_8);
                        line.reset();
                        sink.line(s.endsWith("\r") ? s.substring(0, s.length() - 1) : s);
                    } else if (line.size() < MAX_LINE) {
                        line.write(b);
                    }
                }
            }
        } catch (IOException e) {
            // the stream closed with the process; what was read is handed over
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    private static void drain(InputStream in, ByteArrayOutputStream err) {
        byte[] buf = new byte[4096];
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                synchronized (err) {
                    if (err.size() < STDERR_CAP) {
                        err.write(buf, 0, Math.min(n, STDERR_CAP - err.size()));
                    }
                }
            }
        } catch (IOException e) {
            // closed with the process
        }
    }

    /** Stops a command and every process it started. */
    static void stop(Process p) {
        List<ProcessHandle> tree = p.descendants().toList();
        p.destroyForcibly();
        for (ProcessHandle h : tree) {
            h.destroyForcibly();
        }
    }
}
