package io.gpuforge.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.IntSupplier;

/** A webhook receiver on loopback, as Slack or ntfy would be: it keeps each post's body and headers. */
public final class WebhookReceiver implements AutoCloseable {

    /** One post as it arrived. */
    public record Post(String path, String contentType, String authorization, String body) {
    }

    private final HttpServer server;
    private final ConcurrentLinkedQueue<Post> posts = new ConcurrentLinkedQueue<>();
    private volatile IntSupplier status = () -> 200;

    public WebhookReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readNBytes(1 << 20);
            }
            posts.add(new Post(ex.getRequestURI().getPath(), ex.getRequestHeaders().getFirst("Content-Type"),
                    ex.getRequestHeaders().getFirst("Authorization"), new String(body, StandardCharsets.UTF_8)));
            ex.sendResponseHeaders(status.getAsInt(), -1);
            ex.close();
        });
        server.start();
    }

    /** The status each post is answered with, asked anew for each one. */
    public void answer(IntSupplier s) {
        status = s;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public List<Post> posts() {
        return new ArrayList<>(posts);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
