package io.gpuforge.host.ssh;

import java.io.IOException;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.sshd.client.channel.ChannelDirectTcpip;
import org.apache.sshd.common.future.CloseFuture;
import org.apache.sshd.common.io.AbstractIoWriteFuture;
import org.apache.sshd.common.io.IoHandler;
import org.apache.sshd.common.io.IoReadFuture;
import org.apache.sshd.common.io.IoService;
import org.apache.sshd.common.io.IoSession;
import org.apache.sshd.common.io.IoWriteFuture;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;
import org.apache.sshd.common.util.closeable.AbstractCloseable;

/**
 * The transport of an SSH session that runs inside a {@code direct-tcpip} channel of another (the jump host's):
 * what the session writes goes into the channel in order, one write at a time as the channel takes them; what the
 * channel receives is handed to the session as it comes. Closing either closes both.
 */
public final class JumpIoSession extends AbstractCloseable implements IoSession {

    private static final int READ_SIZE = 32 * 1024;

    /** A write waiting for the channel. */
    private static final class Write extends AbstractIoWriteFuture {
        final Buffer data;

        Write(Object id, Buffer data) {
            super(id, null);
            this.data = data;
        }

        void done(Throwable failure) {
            setValue(failure == null ? Boolean.TRUE : failure);
        }
    }

    private final long id;
    private final IoService service;
    private final IoHandler handler;
    private final ChannelDirectTcpip channel;
    private final JumpAddress remote;
    private final Map<Object, Object> attributes = new ConcurrentHashMap<>();
    private final Deque<Write> writes = new ArrayDeque<>();
    private final AtomicBoolean closedToHandler = new AtomicBoolean();
    private boolean writing;
    private boolean suspended;
    private boolean readPending;

    JumpIoSession(long id, IoService service, IoHandler handler, ChannelDirectTcpip channel, JumpAddress remote) {
        this.id = id;
        this.service = service;
        this.handler = handler;
        this.channel = channel;
        this.remote = remote;
        channel.addCloseFutureListener(f -> close(true));
    }

    /** Starts handing what the channel receives to the session. */
    void startReading() {
        readMore();
    }

    private void readMore() {
        while (true) {
            synchronized (this) {
                if (suspended || readPending || isClosing()) {
                    return;
                }
                readPending = true;
            }
            IoReadFuture f = channel.getAsyncOut().read(new ByteArrayBuffer(READ_SIZE));
            if (!f.isDone()) {
                f.addListener(done -> {
                    if (received(done)) {
                        readMore();
                    }
                });
                return;
            }
            if (!received(f)) {
                return;
            }
        }
    }

    /** Hands one read to the session; false when the channel ended. */
    private boolean received(IoReadFuture f) {
        synchronized (this) {
            readPending = false;
        }
        if (f.getException() != null) {
            close(true);
            return false;
        }
        try {
            handler.messageReceived(this, f.getBuffer());
            return true;
        } catch (Exception e) {
            try {
                handler.exceptionCaught(this, e);
            } catch (Exception ignored) {
                // the session closes itself on what it cannot handle
            }
            close(true);
            return false;
        }
    }

    @Override
    public IoWriteFuture writeBuffer(Buffer buffer) throws IOException {
        Write w = new Write(id, new ByteArrayBuffer(buffer.getCompactData()));
        if (isClosing()) {
            w.done(new IOException("The connection through the jump host is closed"));
            return w;
        }
        synchronized (this) {
            writes.add(w);
            if (writing) {
                return w;
            }
            writing = true;
        }
        writeNext();
        return w;
    }

    private void writeNext() {
        Write w;
        synchronized (this) {
            w = writes.poll();
            if (w == null) {
                writing = false;
                return;
            }
        }
        try {
            channel.getAsyncIn().writeBuffer(w.data).addListener(f -> {
                w.done(f.getException());
                if (f.getException() != null) {
                    close(true);
                }
                writeNext();
            });
        } catch (IOException | RuntimeException e) {
            w.done(e);
            close(true);
            writeNext();
        }
    }

    @Override
    protected CloseFuture doCloseGracefully() {
        return channel.close(false);
    }

    @Override
    protected void doCloseImmediately() {
        channel.close(true);
        synchronized (this) {
            writes.forEach(w -> w.done(new IOException("The connection through the jump host closed")));
            writes.clear();
        }
        if (closedToHandler.compareAndSet(false, true)) {
            try {
                handler.sessionClosed(this);
            } catch (Exception ignored) {
                // closing anyway
            }
        }
        super.doCloseImmediately();
    }

    @Override
    public void shutdownOutputStream() throws IOException {
        channel.getAsyncIn().close(false); // sends EOF once what was written has gone
    }

    @Override
    public void suspendRead() {
        synchronized (this) {
            suspended = true;
        }
    }

    @Override
    public void resumeRead() {
        synchronized (this) {
            suspended = false;
        }
        readMore();
    }

    @Override
    public long getId() {
        return id;
    }

    @Override
    public SocketAddress getAcceptanceAddress() {
        return null;
    }

    @Override
    public SocketAddress getRemoteAddress() {
        return remote;
    }

    @Override
    public SocketAddress getLocalAddress() {
        return remote.via().getIoSession().getLocalAddress();
    }

    @Override
    public IoService getService() {
        return service;
    }

    @Override
    public Object getAttribute(Object key) {
        return attributes.get(key);
    }

    @Override
    public Object setAttribute(Object key, Object value) {
        return value == null ? attributes.remove(key) : attributes.put(key, value);
    }

    @Override
    public Object setAttributeIfAbsent(Object key, Object value) {
        return attributes.putIfAbsent(key, value);
    }

    @Override
    public Object removeAttribute(Object key) {
        return attributes.remove(key);
    }

    @Override
    public String toString() {
        return "JumpIoSession[" + remote + "]";
    }
}
