package io.gpuforge.host.ssh;

import java.io.IOException;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.sshd.client.channel.ChannelDirectTcpip;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.channel.StreamingChannel;
import org.apache.sshd.common.future.CloseFuture;
import org.apache.sshd.common.future.SshFutureListener;
import org.apache.sshd.common.io.DefaultIoConnectFuture;
import org.apache.sshd.common.io.IoConnectFuture;
import org.apache.sshd.common.io.IoConnector;
import org.apache.sshd.common.io.IoHandler;
import org.apache.sshd.common.io.IoServiceEventListener;
import org.apache.sshd.common.io.IoSession;
import org.apache.sshd.common.util.net.SshdSocketAddress;

/**
 * The client's connector: sockets as sshd makes them, except for a {@link JumpAddress}, which is reached over a
 * {@code direct-tcpip} channel of the jump host's session ({@link JumpIoSession}). sshd's own ProxyJump listens on a
 * local port for the whole session, through which any local process reaches the target's SSH port via the jump host
 * as this user; a channel is reachable by nobody else.
 */
public final class JumpConnector implements IoConnector {

    private final IoConnector sockets;
    private final IoHandler handler;
    private final Map<Long, IoSession> tunnels = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong(1L << 40);

    JumpConnector(IoConnector sockets, IoHandler handler) {
        this.sockets = sockets;
        this.handler = handler;
    }

    @Override
    public IoConnectFuture connect(SocketAddress address, AttributeRepository context, SocketAddress local) {
        if (!(address instanceof JumpAddress)) {
            return sockets.connect(address, context, local);
        }
        JumpAddress target = (JumpAddress) address;
        DefaultIoConnectFuture future = new DefaultIoConnectFuture(address, null);
        try {
            ChannelDirectTcpip channel = target.via().createDirectTcpipChannel(
                    new SshdSocketAddress(SshdSocketAddress.LOCALHOST_IPV4, 0),
                    new SshdSocketAddress(target.getHostName(), target.getPort()));
            channel.setStreaming(StreamingChannel.Streaming.Async);
            channel.open().addListener(opened -> {
                if (!opened.isOpened()) {
                    channel.close(true);
                    future.setException(opened.getException() != null ? opened.getException()
                            : new IOException("The jump host did not open a channel to " + target));
                    return;
                }
                JumpIoSession session = new JumpIoSession(ids.getAndIncrement(), this, handler, channel, target);
                tunnels.put(session.getId(), session);
                session.addCloseFutureListener(f -> tunnels.remove(session.getId()));
                try {
                    handler.sessionCreated(session);
                } catch (Exception e) {
                    session.close(true);
                    future.setException(e);
                    return;
                }
                future.setSession(session);
                session.startReading();
            });
        } catch (IOException | RuntimeException e) {
            future.setException(e);
        }
        return future;
    }

    @Override
    public Map<Long, IoSession> getManagedSessions() {
        Map<Long, IoSession> all = new HashMap<>(sockets.getManagedSessions());
        all.putAll(tunnels);
        return all;
    }

    @Override
    public IoServiceEventListener getIoServiceEventListener() {
        return sockets.getIoServiceEventListener();
    }

    @Override
    public void setIoServiceEventListener(IoServiceEventListener listener) {
        sockets.setIoServiceEventListener(listener);
    }

    @Override
    public CloseFuture close(boolean immediately) {
        tunnels.values().forEach(t -> t.close(true));
        return sockets.close(immediately);
    }

    @Override
    public void addCloseFutureListener(SshFutureListener<CloseFuture> listener) {
        sockets.addCloseFutureListener(listener);
    }

    @Override
    public void removeCloseFutureListener(SshFutureListener<CloseFuture> listener) {
        sockets.removeCloseFutureListener(listener);
    }

    @Override
    public boolean isClosed() {
        return sockets.isClosed();
    }

    @Override
    public boolean isClosing() {
        return sockets.isClosing();
    }
}
