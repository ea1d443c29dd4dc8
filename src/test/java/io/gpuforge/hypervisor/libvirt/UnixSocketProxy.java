package io.gpuforge.hypervisor.libvirt;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Unix-socket forwarder that stands for the network between GPUForge and a libvirt host: it passes bytes
 * between its own socket and the target (libvirtd's socket) until {@link #blackHole()}, after which it keeps
 * every socket open but drops what arrives in both directions, like a host that fell off the network (no
 * reset, no FIN, just silence).
 */
final class UnixSocketProxy implements AutoCloseable {

    private final Path socket;
    private final Path target;
    private final ServerSocketChannel server;
    private final List<SocketChannel> open = new CopyOnWriteArrayList<>();
    private volatile boolean dropping;
    private volatile boolean closed;

    UnixSocketProxy(Path socket, Path target) throws IOException {
        this.socket = socket;
        this.target = target;
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Thread accept = new Thread(this::accept, "proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    Path socket() {
        return socket;
    }

    /** From now on nothing gets through, either way; the sockets stay open. */
    void blackHole() {
        dropping = true;
    }

    private void accept() {
        while (!closed) {
            try {
                SocketChannel client = server.accept();
                SocketChannel upstream = SocketChannel.open(UnixDomainSocketAddress.of(target));
                open.add(client);
                open.add(upstream);
                pump(client, upstream, "proxy-up");
                pump(upstream, client, "proxy-down");
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void pump(SocketChannel from, SocketChannel to, String name) {
        Thread t = new Thread(() -> {
            ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
            try {
                while (from.read(buf) >= 0) {
                    buf.flip();
                    if (!dropping) {
                        while (buf.hasRemaining()) {
                            to.write(buf);
                        }
                    }
                    buf.clear();
                }
            } catch (IOException e) {
                // a side closed: the pump ends
            }
        }, name);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (SocketChannel c : open) {
            c.close();
        }
        Files.deleteIfExists(socket);
    }
}
