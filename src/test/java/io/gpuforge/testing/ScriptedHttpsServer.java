package io.gpuforge.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/** An HTTPS server on loopback that answers each request with whatever the test scripts (bad input tests). */
public final class ScriptedHttpsServer implements AutoCloseable {

    /**
     * One scripted answer. {@code delayMillis} before answering; {@code reset} closes without an answer;
     * {@code repeated}, when there, is the body instead of {@code body}.
     */
    public record Reply(int status, String body, long delayMillis, boolean reset, Optional<Repeated> repeated,
                        Map<String, String> headers) {
        public Reply(int status, String body, long delayMillis, boolean reset) {
            this(status, body, delayMillis, reset, Optional.empty(), Map.of());
        }

        /** A {@code status} answer whose {@code Location} header names {@code location}. */
        public static Reply redirect(int status, String location) {
            return new Reply(status, "", 0, false, Optional.empty(), Map.of("Location", location));
        }

        public static Reply of(int status, String body) {
            return new Reply(status, body, 0, false);
        }

        /**
         * A body of {@code head}, {@code item} {@code count} times ({@code count < 0}: until the client goes
         * away) and {@code tail}, written as it goes, never held whole; {@code chunked}: without a length.
         */
        public static Reply repeated(int status, String head, String item, long count, String tail, boolean chunked) {
            return new Reply(status, "", 0, false, Optional.of(new Repeated(head, item, count, tail, chunked)), Map.of());
        }
    }

    /** A body too big to hold: see {@link Reply#repeated}. */
    public record Repeated(String head, String item, long count, String tail, boolean chunked) {
    }

    private final HttpsServer server;
    private final AtomicInteger requests = new AtomicInteger();

    public ScriptedHttpsServer(Function<String, Reply> script) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = ScriptedHttpsServer.class.getResourceAsStream("/demo/demo-lab.p12")) {
            ks.load(in, "gpuforge-demo".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "gpuforge-demo".toCharArray());
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(ssl));
        server.createContext("/", ex -> {
            requests.incrementAndGet();
            answer(ex, script.apply(ex.getRequestURI().getPath()));
        });
        server.setExecutor(Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "scripted-https");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    private static void answer(HttpExchange ex, Reply r) throws IOException {
        try {
            if (r.delayMillis() > 0) {
                Thread.sleep(r.delayMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (r.reset()) {
            ex.getHttpContext().getServer();
            ex.close();
            return;
        }
        if (r.repeated().isPresent()) {
            stream(ex, r.status(), r.repeated().get());
            return;
        }
        byte[] bytes = r.body().getBytes(StandardCharsets.UTF_8);
        r.headers().forEach((k, v) -> ex.getResponseHeaders().set(k, v));
        ex.sendResponseHeaders(r.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            ex.getResponseBody().write(bytes);
        }
        ex.close();
    }

    private static void stream(HttpExchange ex, int status, Repeated r) throws IOException {
        byte[] head = r.head().getBytes(StandardCharsets.UTF_8);
        byte[] item = r.item().getBytes(StandardCharsets.UTF_8);
        byte[] tail = r.tail().getBytes(StandardCharsets.UTF_8);
        boolean forever = r.count() < 0;
        ex.sendResponseHeaders(status, r.chunked() || forever ? 0 : head.length + item.length * r.count() + tail.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(head);
            for (long i = 0; forever || i < r.count(); i++) {
                out.write(item);
            }
            out.write(tail);
        } catch (IOException e) {
            // the client stopped reading: that is what an endless answer is for
        } finally {
            ex.close();
        }
    }

    /** Requests answered so far. */
    public int requests() {
        return requests.get();
    }

    public String url() {
        return "https://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
