package io.gpuforge.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder on loopback in front of a real server (the Proxmox simulator, an SSH server): bytes pass through
 * unchanged (TLS and SSH included, so a pinned certificate or a known host key still matches). {@link #cut()} drops
 * every open connection and refuses new ones as a host that went off the network does; {@link #restore()} lets them
 * through again, on the same port. {@link #fault} makes the server's side misbehave as a bad network does (answers
 * held back, trickled a byte a second, cut half way, reset), and {@link #retarget} puts another server behind the
 * same address (a reinstalled host: another certificate, another host key).
 */
public final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    /** What happens to the bytes the server sends back, from the next ones on. */
    public enum Fault {
        /** Passed on at once. */
        NONE,
        /** Held back (the connection stays open) until the fault changes. */
        STALL,
        /** Passed on one byte a second. */
        TRICKLE,
        /** Half of the next bytes passed on, then the connection closed. */
        HALF,
        /** The connection reset (RST) as soon as the server answers. */
        RESET
    }

    private volatile InetSocketAddress target;
    private volatile Fault fault = Fault.NONE;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile boolean down;
    private volatile boolean closed;

    public TcpProxy(String targetHost, int targetPort) throws IOException {
        this.target = new InetSocketAddress(targetHost, targetPort);
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "tcp-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    /** {@code https://127.0.0.1:<port>}: the simulator's URL through this proxy. */
    public String httpsUrl() {
        return "https://127.0.0.1:" + port();
    }

    /** From the next bytes the server sends on. */
    public void fault(Fault f) {
        fault = f;
    }

    /** New connections go to {@code host:port} from now on; open ones stay where they are. */
    public void retarget(String host, int port) {
        target = new InetSocketAddress(host, port);
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                if (down) {
                    client.setSoLinger(true, 0);
                    client.close();
                    continue;
                }
                Socket upstream = new Socket();
                upstream.connect(target, 5000);
                open.add(client);
                open.add(upstream);
                pump(client, upstream, false);
                pump(upstream, client, true);
            } catch (IOException e) {
                // a dropped client, or the proxy closed
            }
        }
    }

    private void pump(Socket from, Socket to, boolean answers) {
        Thread t = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                byte[] buf = new byte[16384];
                int n;
                while ((n = in.read(buf)) > 0) {
                    if (!answers || !faulty(buf, n, to, out)) {
                        out.write(buf, 0, n);
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // one side went away
            } finally {
                quietly(from);
                quietly(to);
            }
        }, "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /** Passes {@code n} bytes on as the fault says; true when it did (or dropped them), false to pass them at once. */
    private boolean faulty(byte[] buf, int n, Socket client, OutputStream out) throws IOException {
        try {
            while (fault == Fault.STALL && !closed) {
                Thread.sleep(20);
            }
            switch (fault) {
                case TRICKLE -> {
                    for (int i = 0; i < n; i++) {
                        out.write(buf[i]);
                        out.flush();
                        if (fault == Fault.TRICKLE) {
                            Thread.sleep(1000);
                        }
                    }
                    return true;
                }
                case HALF -> {
                    out.write(buf, 0, Math.max(1, n / 2));
                    out.flush();
                    client.close();
                    return true;
                }
                case RESET -> {
                    client.setSoLinger(true, 0);
                    client.close();
                    return true;
                }
                default -> {
                    return false;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** The network goes away: open connections are reset, new ones refused. */
    public void cut() {
        down = true;
        for (Socket s : open) {
            try {
                s.setSoLinger(true, 0);
            } catch (IOException e) {
                // closing anyway
            }
            quietly(s);
        }
        open.clear();
    }

    /** The network is back. */
    public void restore() {
        down = false;
    }

    private static void quietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        closed = true;
        cut();
        try {
            server.close();
        } catch (IOException e) {
            // closing
        }
    }
}
