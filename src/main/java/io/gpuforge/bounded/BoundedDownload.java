package io.gpuforge.bounded;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A large file (a cloud image) streamed to disk, never held in memory: written to {@code NAME.part} beside the
 * target as it arrives and hashed on the way, refused past {@code maxBytes}, given up when no byte arrives for
 * {@code stall}, stopped when {@code cancelled} says so; checked against the SHA-256 given, or else the one the
 * server publishes in {@code SHA256SUMS} beside the file; renamed to the target only when whole and checked, and
 * the part file removed whatever else happens.
 */
public final class BoundedDownload {

    private static final Duration POLL = Duration.ofMillis(200);
    private static final ReadLimits SUMS = new ReadLimits(Duration.ofSeconds(15), 1 << 20);

    private BoundedDownload() {
    }

    /** Bytes so far, and the size the server announced. */
    @FunctionalInterface
    public interface Progress {
        void bytes(long done, OptionalLong total);
    }

    /** A finished download: its file, size, SHA-256, and what it was checked against ("SHA256SUMS", "the template"). */
    public record Result(Path file, long bytes, String sha256, Optional<String> checkedAgainst) {
    }

    /** The download was stopped by the user. */
    public static final class CancelledException extends IOException {
        private static final long serialVersionUID = 1L;

        CancelledException(String message) {
            super(message);
        }
    }

    public static Result download(HttpClient http, URI url, Path target, long maxBytes, Duration stall,
                                  Optional<String> sha256, Progress progress, BooleanSupplier cancelled)
            throws IOException, InterruptedException {
        String source = url.toString();
        Optional<String> expected = sha256.map(s -> s.toLowerCase(Locale.ROOT));
        String against = "the template's SHA-256";
        if (expected.isEmpty()) {
            expected = published(http, url);
            against = "the server's SHA256SUMS";
        }
        Path part = target.resolveSibling(target.getFileName() + ".part");
        ToFile body = new ToFile(part, source, maxBytes);
        try {
            CompletableFuture<HttpResponse<Long>> exchange = http.sendAsync(HttpRequest.newBuilder(url)
                    .timeout(stall).GET().build(), info -> {
                        body.expect(info.statusCode(), info.headers().firstValueAsLong("Content-Length"));
                        return body;
                    });
            long seen = -1;
            long quietSince = System.nanoTime();
            while (true) {
                if (cancelled.getAsBoolean()) {
                    body.abort();
                    exchange.cancel(true);
                    throw new CancelledException("the download of " + source + " was cancelled");
                }
                try {
                    HttpResponse<Long> r = exchange.get(POLL.toMillis(), TimeUnit.MILLISECONDS);
                    if (r.statusCode() != 200) {
                        throw new IOException(source + " answered HTTP " + r.statusCode());
                    }
                    break;
                } catch (TimeoutException e) {
                    long now = body.written();
                    if (now != seen) {
                        seen = now;
                        quietSince = System.nanoTime();
                        progress.bytes(now, body.total());
                    } else if (System.nanoTime() - quietSince > stall.toNanos()) {
                        body.abort();
                        exchange.cancel(true);
                        throw new BoundedReadException(source, BoundedReadException.Kind.DEADLINE,
                                new ReadLimits(stall, maxBytes), now, source + " sent nothing for "
                                + new ReadLimits(stall, maxBytes).deadlineText() + " (" + String.format(Locale.ROOT,
                                "%,d", now) + " bytes had arrived); the download was given up");
                    }
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    while (cause.getCause() != null && !(cause instanceof IOException)) {
                        cause = cause.getCause();
                    }
                    if (cause instanceof java.net.http.HttpTimeoutException) {
                        throw new BoundedReadException(source, BoundedReadException.Kind.DEADLINE,
                                new ReadLimits(stall, maxBytes), 0);
                    }
                    throw cause instanceof IOException io ? io : new IOException(source + ": " + cause, cause);
                }
            }
            progress.bytes(body.written(), body.total());
            String sum = body.sha256();
            if (expected.isPresent() && !expected.get().equals(sum)) {
                throw new IOException(source + " has SHA-256 " + sum + ", not " + expected.get() + " as " + against
                        + " says: the download is damaged or the file was replaced");
            }
            Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return new Result(target, body.written(), sum, expected.isPresent() ? Optional.of(against)
                    : Optional.empty());
        } finally {
            body.close();
            Files.deleteIfExists(part);
        }
    }

    /** The SHA-256 {@code SHA256SUMS} beside the file gives for it; empty when there is none or it lists no such file. */
    static Optional<String> published(HttpClient http, URI url) throws InterruptedException {
        String path = url.getPath();
        String name = path.substring(path.lastIndexOf('/') + 1);
        try {
            BoundedHttp.Answer a = BoundedHttp.send(http, HttpRequest.newBuilder(url.resolve("SHA256SUMS")).GET()
                    .build(), url.resolve("SHA256SUMS").toString(), SUMS);
            if (a.status() != 200) {
                return Optional.empty();
            }
            return sumFor(new String(a.body(), StandardCharsets.UTF_8).lines().toList(), name);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The sum of {@code name} in sha256sum's format ("HEX  NAME" or "HEX *NAME"). */
    static Optional<String> sumFor(List<String> lines, String name) {
        for (String line : lines) {
            String l = line.strip();
            int space = l.indexOf(' ');
            if (space != 64 || !l.substring(0, 64).matches("[0-9a-fA-F]{64}")) {
                continue;
            }
            String file = l.substring(space).strip();
            if (file.startsWith("*")) {
                file = file.substring(1);
            }
            if (file.equals(name) || file.equals("./" + name)) {
                return Optional.of(l.substring(0, 64).toLowerCase(Locale.ROOT));
            }
        }
        return Optional.empty();
    }

    /** The body written to the part file and hashed as it arrives. */
    private static final class ToFile implements HttpResponse.BodySubscriber<Long>, AutoCloseable {
        private final Path part;
        private final String source;
        private final long maxBytes;
        private final CompletableFuture<Long> result = new CompletableFuture<>();
        private final AtomicLong written = new AtomicLong();
        private final MessageDigest digest;
        private volatile Flow.Subscription subscription;
        private volatile OptionalLong total = OptionalLong.empty();
        private volatile int status;
        private FileChannel out;

        ToFile(Path part, String source, long maxBytes) {
            this.part = part;
            this.source = source;
            this.maxBytes = maxBytes;
            try {
                digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        void expect(int statusCode, OptionalLong length) {
            status = statusCode;
            total = length;
        }

        long written() {
            return written.get();
        }

        OptionalLong total() {
            return total;
        }

        synchronized String sha256() {
            return HexFormat.of().formatHex(digest.digest());
        }

        void abort() {
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (status != 200) {
                s.cancel();
                result.complete(0L);
                return;
            }
            if (total.isPresent() && total.getAsLong() > maxBytes) {
                fail(new BoundedReadException(source, BoundedReadException.Kind.TOO_LARGE, ReadLimits.size(maxBytes),
                        0));
                return;
            }
            try {
                synchronized (this) {
                    out = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                            StandardOpenOption.WRITE);
                }
            } catch (IOException e) {
                fail(e);
                return;
            }
            s.request(1);
        }

        private void fail(Throwable t) {
            abort();
            result.completeExceptionally(t);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (result.isDone()) {
                return;
            }
            try {
                synchronized (this) {
                    for (ByteBuffer b : items) {
                        long now = written.get() + b.remaining();
                        if (now > maxBytes) {
                            fail(new BoundedReadException(source, BoundedReadException.Kind.TOO_LARGE,
                                    ReadLimits.size(maxBytes), now));
                            return;
                        }
                        digest.update(b.duplicate());
                        while (b.hasRemaining()) {
                            out.write(b);
                        }
                        written.set(now);
                    }
                }
                subscription.request(1);
            } catch (IOException e) {
                fail(e);
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            try {
                synchronized (this) {
                    if (out != null) {
                        out.force(false);
                    }
                }
                result.complete(written.get());
            } catch (IOException e) {
                result.completeExceptionally(e);
            }
        }

        @Override
        public CompletionStage<Long> getBody() {
            return result;
        }

        @Override
        public synchronized void close() throws IOException {
            if (out != null) {
                out.close();
                out = null;
            }
        }
    }
}
