package io.gpuforge.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.util.concurrent.Executors;
import java.util.function.Function;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/** An HTTPS server on loopback that answers each request with whatever the test scripts (bad input tests). */
public final class ScriptedHttpsServer implements AutoCloseable {

    /** One scripted answer. {@code delayMillis} before answering; {@code reset} closes without an answer. */
    public record Reply(int status, String body, long delayMillis, boolean reset) {
        public static Reply of(int status, String body) {
            return new Reply(status, body, 0, false);
        }
    }

    private final HttpsServer server;

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
        server.createContext("/", ex -> answer(ex, script.apply(ex.getRequestURI().getPath())));
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
        byte[] bytes = r.body().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ex.sendResponseHeaders(r.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            ex.getResponseBody().write(bytes);
        }
        ex.close();
    }

    public String url() {
        return "https://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
