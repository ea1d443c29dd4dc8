package io.gpuforge.host.ssh;

import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.util.net.SshdSocketAddress;

/**
 * A host reached through a jump host's session ({@code ProxyJump}), as OpenSSH's {@code ssh -W} reaches it: over a
 * {@code direct-tcpip} channel of that session, never a port listening on this machine. {@link JumpConnector}
 * connects to it; host and port are the target's, as the jump host is asked to reach it.
 */
public final class JumpAddress extends SshdSocketAddress {

    private static final long serialVersionUID = 1L;
    private final transient ClientSession via;

    JumpAddress(ClientSession via, String host, int port) {
        super(host, port);
        this.via = via;
    }

    ClientSession via() {
        return via;
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    @Override
    public String toString() {
        return super.toString() + " (through " + via.getConnectAddress() + ")";
    }
}
