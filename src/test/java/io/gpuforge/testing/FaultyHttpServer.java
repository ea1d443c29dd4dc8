package io.gpuforge.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * An HTTP server on loopback that misbehaves the ways real ones do: it answers well, trickles its body a byte at a
 * time, sends far too much, announces too much, stalls after the headers or before them, stops half way and hangs
 * up, answers 503, or resets the connection. Raw sockets: no library smooths the fault over. The mode can change between requests.
 */
public final class FaultyHttpServer implements AutoCloseable {

    /** How the next answers go. */
    public enum Mode { GOOD, TRICKLE, HUGE, HUGE_ANNOUNCED, STALL_BODY, STALL_HEADERS, HALF_BODY_CLOSE, SERVER_ERROR, RESET }

    private final ServerSocket server;
    private final Thread acceptor;
    private final List<Socket> open = new ArrayList<>();
    private volatile Mode mode = Mode.GOOD;
    private volatile byte[] body = "ok\n".getBytes(StandardCharsets.UTF_8);

    public FaultyHttpServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::accept, "faulty-http");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public void mode(Mode m) {
        mode = m;
    }

    /** What a good answer holds (and what a faulty one starts to send). */
    public void body(String text) {
        body = text.getBytes(StandardCharsets.UTF_8);
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getLocalPort() + path;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                synchronized (open) {
                    open.add(s);
                }
                Thread t = new Thread(() -> answer(s), "faulty-http-answer");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void answer(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            int a = 0;
            int b = 0;
            int c = 0;
            int d;
            while ((d = in.read()) >= 0) { // up to the blank line that ends the request's headers
                if (a == '\r' && b == '\n' && c == '\r' && d == '\n') {
                    break;
                }
                a = b;
                b = c;
                c = d;
            }
            OutputStream out = s.getOutputStream();
            Mode m = mode;
            byte[] full = body;
            switch (m) {
                case GOOD -> {
                    out.write(headers(full.length));
                    out.write(full);
                }
                case TRICKLE -> {
                    out.write(headers(full.length));
                    out.flush();
                    for (byte x : full) {
                        out.write(x);
                        out.flush();
                        Thread.sleep(1000);
                    }
                }
                case HUGE -> {
                    out.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    byte[] line = "gpu_temperature_celsius{gpu=\"0\"} 42\n".repeat(1000).getBytes(StandardCharsets.UTF_8);
                    for (long sent = 0; sent < (1L << 31); sent += line.length) {
                        out.write(line);
                    }
                }
                case HUGE_ANNOUNCED -> {
                    out.write(headers(1L << 32));
                    out.flush();
                    Thread.sleep(60_000);
                }
                case STALL_BODY -> {
                    out.write(headers(full.length));
                    out.write(full, 0, full.length / 2);
                    out.flush();
                    Thread.sleep(60_000);
                }
                case STALL_HEADERS -> Thread.sleep(60_000);
                case SERVER_ERROR -> out.write(("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
                        + "Content-Length: 12\r\nConnection: close\r\n\r\nunavailable\n").getBytes(StandardCharsets.US_ASCII));
                case RESET -> {
                    s.setSoLinger(true, 0);
                    s.close();
                    return;
                }
                case HALF_BODY_CLOSE -> {
                    out.write(headers(full.length));
                    out.write(full, 0, full.length / 2);
                    out.flush();
                }
                default -> throw new IllegalStateException();
            }
            out.flush();
        } catch (IOException | InterruptedException e) {
            // the client hung up: what the faults are for
        }
    }

    private static byte[] headers(long length) {
        return ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + length
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        server.close();
        synchronized (open) {
            for (Socket s : open) {
                s.close();
            }
        }
    }
}
