package io.gpuforge.bounded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Java's HttpClient with a deadline on the whole exchange and a limit on the body. Its own request timeout covers
 * the response headers only: a server that trickles its body, or stops half way, holds {@code send} for ever, and
 * {@code BodyHandlers.ofByteArray} takes whatever size comes. Here the body is counted as it arrives and refused past
 * the limit (or at once, by its Content-Length), and the exchange is cancelled at the deadline.
 */
public final class BoundedHttp {

    private BoundedHttp() {
    }

    /** An answer read in full within the limits. */
    public record Answer(int status, HttpHeaders headers, byte[] body) {
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /**
     * Sends {@code request} and reads its answer within {@code limits}; {@code source} names the other side in the
     * error ("the exporter at http://…").
     *
     * @throws BoundedReadException past the deadline or the byte limit
     * @throws IOException          when the exchange fails otherwise (refused, reset, TLS)
     */
    public static Answer send(HttpClient http, HttpRequest request, String source, ReadLimits limits)
            throws IOException, InterruptedException {
        Limited body = new Limited(source, limits);
        // the headers get the same deadline (the request's own timeout covers only them)
        HttpRequest bounded = HttpRequest.newBuilder(request, (name, value) -> true).timeout(limits.deadline()).build();
        CompletableFuture<HttpResponse<byte[]>> exchange = http.sendAsync(bounded, info -> {
            body.expect(info.headers().firstValueAsLong("Content-Length").orElse(-1));
            return body;
        });
        try {
            HttpResponse<byte[]> r = exchange.get(limits.deadline().toNanos(), TimeUnit.NANOSECONDS);
            return new Answer(r.statusCode(), r.headers(), r.body());
        } catch (TimeoutException e) {
            body.abort();
            exchange.cancel(true);
            throw new BoundedReadException(source, BoundedReadException.Kind.DEADLINE, limits, body.read());
        } catch (InterruptedException e) {
            body.abort();
            exchange.cancel(true);
            throw e;
        } catch (CancellationException e) {
            throw new IOException(source + ": the request was cancelled", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            while ((cause instanceof java.util.concurrent.CompletionException || cause instanceof ExecutionException)
                    && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof java.net.http.HttpTimeoutException
                    && !(cause instanceof java.net.http.HttpConnectTimeoutException)) {
                throw new BoundedReadException(source, BoundedReadException.Kind.DEADLINE, limits, body.read());
            }
            if (cause instanceof BoundedReadException b) {
                throw new BoundedReadException(b.source(), b.kind(), b.limits(), b.read());
            }
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException(source + ": " + cause, cause);
        }
    }

    /** The body, counted as it arrives; refused past the limit. */
    private static final class Limited implements HttpResponse.BodySubscriber<byte[]> {
        private final String source;
        private final ReadLimits limits;
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final AtomicLong read = new AtomicLong();
        private volatile Flow.Subscription subscription;
        private volatile long announced = -1;

        Limited(String source, ReadLimits limits) {
            this.source = source;
            this.limits = limits;
        }

        void expect(long contentLength) {
            announced = contentLength;
        }

        long read() {
            return read.get();
        }

        void abort() {
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        }

        private void tooLarge(long at) {
            abort();
            result.completeExceptionally(new BoundedReadException(source, BoundedReadException.Kind.TOO_LARGE, limits,
                    at));
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (announced > limits.maxBytes()) {
                tooLarge(0);
                return;
            }
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer b : items) {
                long now = read.addAndGet(b.remaining());
                if (now > limits.maxBytes()) {
                    tooLarge(now);
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(bytes.toByteArray());
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }
    }
}
