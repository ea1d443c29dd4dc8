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
 * A TCP forwarder on loopback in front of a real server (the Proxmox simulator): bytes pass through unchanged (TLS
 * included, so a pinned certificate still matches). {@link #cut()} drops every open connection and refuses new ones
 * as a host that went off the network does; {@link #restore()} lets them through again, on the same port.
 */
public final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final InetSocketAddress target;
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
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                // a dropped client, or the proxy closed
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                byte[] buf = new byte[16384];
                int n;
                while ((n = in.read(buf)) > 0) {
                    out.write(buf, 0, n);
                    out.flush();
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
