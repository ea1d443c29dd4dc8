package io.gpuforge.host.ssh;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.sshd.client.ClientBuilder;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.config.hosts.ConfigFileHostEntryResolver;
import org.apache.sshd.client.config.hosts.HostConfigEntry;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.future.ConnectFuture;
import org.apache.sshd.client.future.DefaultConnectFuture;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.io.IoConnector;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.session.SessionContext;

/**
 * An sshd client that resolves every host, the one logged in to and each {@code ProxyJump} hop on the way, through
 * the user's OpenSSH config (sshd's {@link ConfigFileHostEntryResolver}; sshd makes the jumps), and remembers for
 * each connection which host it stands for. A hop reached through a jump host runs over a channel of the jump
 * host's session ({@link JumpConnector}), no local port; its host key is checked, and its keys chosen, under its own
 * name ({@link #hop}).
 */
public final class SshHops extends SshClient {

    /** One host of a login: where it is, as whom, with which key files from the config. */
    record Hop(SshTarget target, List<Path> identities, boolean identitiesOnly, Optional<String> identityAgent,
               Optional<String> proxyJump, HostKeyTrust.Config hostKeys) {
        Hop {
            identities = List.copyOf(identities);
        }
    }

    private final Map<HostConfigEntry, Hop> resolved = Collections.synchronizedMap(new IdentityHashMap<>());
    private final Map<SocketAddress, Hop> connected = new ConcurrentHashMap<>();
    private HostConfigEntryResolver config = HostConfigEntryResolver.EMPTY;
    private String localUser = "root";

    /** @param configFile the OpenSSH client config; empty: only what is typed, and the defaults */
    static SshHops create(Optional<Path> configFile, String localUser) {
        SshHops client = (SshHops) ClientBuilder.builder().factory(SshHops::new).build();
        client.config = configFile.<HostConfigEntryResolver>map(ConfigFileHostEntryResolver::new)
                .orElse(HostConfigEntryResolver.EMPTY);
        client.localUser = localUser;
        client.setHostConfigEntryResolver(client::resolve);
        return client;
    }

    /**
     * What the config makes of a destination (as {@code ssh -G} would): HostName, Port, User, IdentityFile,
     * ProxyJump; what is typed wins, then the config, then the local user and port 22. The key files are kept aside
     * (GPUForge loads them itself, to say which one could not be decrypted), the rest goes to sshd.
     */
    HostConfigEntry resolve(String host, int port, SocketAddress local, String user, String proxyJump,
                            AttributeRepository context) throws IOException {
        HostConfigEntry e = config.resolveEffectiveHost(host, port, local, user, proxyJump, context);
        if (e == null) {
            e = new HostConfigEntry(host, host, port, user);
        }
        if (e.getHostName() == null || e.getHostName().isBlank()) {
            e.setHostName(host);
        }
        if (e.getUsername() == null || e.getUsername().isBlank()) {
            e.setUsername(localUser);
        }
        if (e.getPort() <= 0) {
            e.setPort(22);
        }
        List<Path> ids = e.getIdentities().stream().map(Path::of).toList();
        Hop hop = new Hop(new SshTarget(e.getUsername(), e.getHostName(), e.getPort()), ids, e.isIdentitiesOnly(),
                Optional.ofNullable(e.getProperty(HostConfigEntry.IDENTITY_AGENT)).filter(s -> !s.isBlank()),
                Optional.ofNullable(e.getProxyJump()).filter(s -> !s.isBlank() && !"none".equalsIgnoreCase(s)),
                new HostKeyTrust.Config(property(e, "HostKeyAlias"), property(e, "UserKnownHostsFile"),
                        property(e, "GlobalKnownHostsFile"), property(e, "StrictHostKeyChecking")));
        e.setIdentities(List.of());
        e.setIdentitiesOnly(false);
        resolved.put(e, hop);
        return e;
    }

    /** The destination as the config resolves it. */
    HostConfigEntry resolve(SshDestination d) throws IOException {
        return resolve(d.host(), d.port(), null, d.user().orElse(null), null, null);
    }

    /** The host an entry from {@link #resolve} stands for. */
    Hop hopOf(HostConfigEntry entry) {
        Hop h = resolved.get(entry);
        return h != null ? h : new Hop(new SshTarget(entry.getUsername(), entry.getHostName(), entry.getPort()),
                List.of(), false, Optional.empty(), Optional.empty(), HostKeyTrust.Config.NONE);
    }

    private static Optional<String> property(HostConfigEntry e, String name) {
        return Optional.ofNullable(e.getProperty(name)).filter(v -> !v.isBlank());
    }

    /** The host a session stands for (also when it runs over a port forwarded by a jump host). */
    Optional<Hop> hop(SessionContext session) {
        if (!(session instanceof ClientSession)) {
            return Optional.empty();
        }
        SocketAddress a = ((ClientSession) session).getConnectAddress();
        return a == null ? Optional.empty() : Optional.ofNullable(connected.get(a));
    }

    /** Sockets as sshd makes them, and jumps over channels of the jump host's session ({@link JumpConnector}). */
    @Override
    protected IoConnector createConnector() {
        return new JumpConnector(super.createConnector(), getSessionFactory());
    }

    /**
     * A host behind {@code ProxyJump}: the jump host is connected to (through its own jumps) and logged in to, then
     * the host is reached over a {@code direct-tcpip} channel of that session, as OpenSSH's {@code -W} does: no port
     * listens on this machine. The jump session closes with the host's. {@code jumps} is in the config's order,
     * visited first to last as OpenSSH does ({@code ProxyJump a,b}: a, then b through a, then the host through b;
     * sshd's own walk takes the first as the one nearest the host).
     */
    @Override
    protected ConnectFuture doConnect(HostConfigEntry hostConfig, List<HostConfigEntry> jumps, AttributeRepository context,
                                      SocketAddress localAddress) throws IOException {
        if (jumps == null || jumps.isEmpty()) {
            return super.doConnect(hostConfig, jumps, context, localAddress);
        }
        HostConfigEntry jump = jumps.remove(jumps.size() - 1);
        ConnectFuture toJump = doConnect(jump, jumps, context, null);
        DefaultConnectFuture result = new DefaultConnectFuture(hostConfig.getHostName() + ":" + hostConfig.getPort(),
                null);
        toJump.addListener(f -> {
            if (!f.isConnected()) {
                result.setException(f.getException() != null ? f.getException()
                        : new IOException("The jump host " + jump.getHostName() + " could not be reached"));
                return;
            }
            ClientSession via = f.getClientSession();
            try {
                via.auth().addListener(auth -> {
                    if (!auth.isSuccess()) {
                        via.close(true);
                        result.setException(auth.getException());
                        return;
                    }
                    try {
                        ConnectFuture target = doConnect(hostConfig.getUsername(), new JumpAddress(via,
                                hostConfig.getHostName(), hostConfig.getPort()), context, localAddress,
                                preloadClientIdentities(List.of()), hostConfig);
                        target.addListener(t -> {
                            if (t.isConnected()) {
                                t.getClientSession().addCloseFutureListener(c -> via.close(true));
                                result.setSession(t.getClientSession());
                            } else {
                                via.close(true);
                                result.setException(t.getException());
                            }
                        });
                    } catch (IOException | RuntimeException e) {
                        via.close(true);
                        result.setException(e);
                    }
                });
            } catch (IOException | RuntimeException e) {
                via.close(true);
                result.setException(e);
            }
        });
        return result;
    }

    /** Notes which host each connection stands for before it is opened, so the key exchange already knows. */
    @Override
    protected ConnectFuture doConnect(String username, SocketAddress targetAddress, AttributeRepository context,
                                      SocketAddress localAddress, KeyIdentityProvider identities,
                                      HostConfigEntry hostConfig) throws IOException {
        connected.put(targetAddress, hopOf(hostConfig));
        return super.doConnect(username, targetAddress, context, localAddress, identities, hostConfig);
    }
}
