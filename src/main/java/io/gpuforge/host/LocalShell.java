package io.gpuforge.host;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** This machine: commands run as child processes of {@code /bin/sh}. */
public final class LocalShell implements HostShell {

    static final int STDERR_CAP = 64 * 1024;

    @Override
    public String describe() {
        return "local";
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout) throws ProbeException {
        Process p;
        try {
            p = new ProcessBuilder("/bin/sh", "-c", command).start();
        } catch (IOException e) {
            throw new ProbeException("Cannot start /bin/sh: " + e.getMessage(), e);
        }
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream(), Integer.MAX_VALUE));
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream(), STDERR_CAP));
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin);
            }
        } catch (IOException e) {
            // the command may exit without reading all of stdin; its exit code tells
        }
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new ProbeException("'" + command + "' did not finish within " + timeout.toSeconds() + " s");
            }
            return new Result(p.exitValue(), out.get(), new String(err.get(), StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new ProbeException("Interrupted while running '" + command + "'", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new ProbeException("Cannot read the output of '" + command + "'", e.getCause());
        }
    }

    static byte[] drain(InputStream in, int cap) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                if (b.size() < cap) {
                    b.write(buf, 0, Math.min(n, cap - b.size()));
                }
            }
        } catch (IOException e) {
            // stream closed by the process ending; what was read is kept
        }
        return b.toByteArray();
    }

    @Override
    public void close() {
        // nothing held
    }
}
