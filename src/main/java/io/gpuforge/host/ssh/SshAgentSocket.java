package io.gpuforge.host.ssh;

import java.io.EOFException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.StreamSupport;
import org.apache.sshd.agent.SshAgent;
import org.apache.sshd.agent.SshAgentFactory;
import org.apache.sshd.agent.SshAgentServer;
import org.apache.sshd.agent.common.AbstractAgentProxy;
import org.apache.sshd.common.FactoryManager;
import org.apache.sshd.common.SshException;
import org.apache.sshd.common.channel.ChannelFactory;
import org.apache.sshd.common.session.ConnectionService;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;

/**
 * A client of a running {@code ssh-agent} (or any agent speaking its protocol: gpg-agent, KeePassXC, 1Password) over
 * its Unix-domain socket. The protocol itself, listing keys and signing, is Apache MINA sshd's
 * ({@link AbstractAgentProxy}); sshd's own Unix connector needs the native Tomcat APR library, so the transport here
 * is the JDK's Unix-domain {@link SocketChannel}: one framed request, one framed answer.
 */
public final class SshAgentSocket extends AbstractAgentProxy {

    /** OpenSSH's limit for an agent's answer. */
    static final int MAX_ANSWER = 256 * 1024;
    private final Path socket;
    private final SocketChannel channel;
    private final Predicate<PublicKey> offered;
    private final Factory.UnreachableAgent failed;

    private SshAgentSocket(Path socket, SocketChannel channel, Predicate<PublicKey> offered,
                           Factory.UnreachableAgent failed) {
        super(null);
        this.socket = socket;
        this.channel = channel;
        this.offered = offered;
        this.failed = failed;
    }

    /**
     * Connects to the agent at {@code socket}; only keys that {@code offered} accepts are listed. An agent that fails
     * to list its keys is told to {@code failed} and lists none.
     */
    static SshAgentSocket open(Path socket, Predicate<PublicKey> offered, Factory.UnreachableAgent failed)
            throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return new SshAgentSocket(socket, ch, offered, failed);
    }

    @Override
    public Iterable<? extends Map.Entry<PublicKey, String>> getIdentities() {
        try {
            List<Map.Entry<PublicKey, String>> keys = StreamSupport.stream(super.getIdentities().spliterator(), false)
                    .map(e -> (Map.Entry<PublicKey, String>) e).filter(e -> offered.test(e.getKey())).toList();
            failed.listed(socket, keys.size());
            return keys;
        } catch (IOException e) {
            failed.unreachable(socket, e);
            return List.of();
        }
    }

    @Override
    protected synchronized Buffer request(Buffer buffer) throws IOException {
        ByteBuffer out = ByteBuffer.wrap(buffer.array(), buffer.rpos(), buffer.available());
        while (out.hasRemaining()) {
            channel.write(out);
        }
        int length = read(Integer.BYTES).getInt();
        if (length <= 0 || length > MAX_ANSWER) {
            throw new SshException("The SSH agent at " + socket + " answered with a message of " + length + " bytes");
        }
        return new ByteArrayBuffer(read(length).array());
    }

    private ByteBuffer read(int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            if (channel.read(b) < 0) {
                throw new EOFException("The SSH agent at " + socket + " closed the connection");
            }
        }
        return b.flip();
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } finally {
            super.close();
        }
    }

    @Override
    public String toString() {
        return "ssh-agent at " + socket;
    }

    /**
     * Lets sshd ask the agent for keys at each login: the socket (and which of its keys may be offered) per session,
     * none when there is no agent. An agent that cannot be reached is told to {@code unreachable} and skipped: the
     * login goes on with key files and passwords. No agent forwarding is offered.
     */
    static final class Factory implements SshAgentFactory {

        /** Which agent a session uses and which of its keys it offers. */
        record Choice(Path socket, Predicate<PublicKey> offered) {
        }

        private final Function<Session, Optional<Choice>> choice;
        private final UnreachableAgent unreachable;

        /** Told what the agent of a login did: listed its keys, or could not be asked. */
        interface UnreachableAgent {
            void unreachable(Path socket, IOException e);

            void listed(Path socket, int keys);
        }

        Factory(Function<Session, Optional<Choice>> choice, UnreachableAgent unreachable) {
            this.choice = choice;
            this.unreachable = unreachable;
        }

        @Override
        public List<ChannelFactory> getChannelForwardingFactories(FactoryManager manager) {
            return List.of();
        }

        @Override
        public SshAgent createClient(Session session, FactoryManager manager) throws IOException {
            Optional<Choice> c = choice.apply(session);
            if (c.isEmpty()) {
                return null;
            }
            try {
                return open(c.get().socket(), c.get().offered(), unreachable);
            } catch (IOException e) {
                unreachable.unreachable(c.get().socket(), e);
                return null;
            }
        }

        @Override
        public SshAgentServer createServer(ConnectionService service) throws IOException {
            throw new IOException("GPUForge does not forward the SSH agent");
        }
    }
}
