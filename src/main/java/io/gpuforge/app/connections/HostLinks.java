package io.gpuforge.app.connections;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.HostLink;
import io.gpuforge.store.HostLinkRepository;
import io.gpuforge.store.StoreException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * "The shell of this node", in one place: which host does the host-level work (probe, plan, apply, verify,
 * reboot, telemetry over SSH) of a Proxmox node or a libvirt host. A link the user made wins; without one,
 * a libvirt URI tells (no host part: this computer; {@code qemu+ssh://user@host}: that host, through a saved SSH
 * connection to it when there is one), an SSH connection is its own host, and a Proxmox node has none until
 * linked. Blocking (SQLite): call off the FX thread.
 */
public final class HostLinks {

    private final HostLinkRepository repository;
    private final ConnectionsService connections;

    public HostLinks(HostLinkRepository repository, ConnectionsService connections) {
        this.repository = repository;
        this.connections = connections;
    }

    /** The link of a node: the user's, or a guess (marked as one), or empty when nothing can be told. */
    public Optional<HostLink> of(ConnectionInfo c, String node) throws StoreException {
        Optional<HostLink> stored = repository.of(c.id()).stream().filter(l -> l.node().equals(node)).findFirst();
        if (stored.isPresent()) {
            return stored;
        }
        return guess(c, connections.all()).map(t -> new HostLink(c.id(), node, t, true));
    }

    /** Links a node to a host (replacing an earlier link). */
    public void link(ConnectionInfo c, String node, HostLink.Target target) throws StoreException {
        if (target instanceof HostLink.SavedSsh) {
            long id = ((HostLink.SavedSsh) target).connectionId();
            boolean ssh = connections.all().stream().anyMatch(x -> x.id() == id && x.kind() == ConnectionInfo.Kind.SSH);
            if (!ssh) {
                throw new IllegalArgumentException("connection " + id + " is not a saved SSH host");
            }
        }
        repository.put(new HostLink(c.id(), node, target, false));
    }

    public void unlink(ConnectionInfo c, String node) throws StoreException {
        repository.remove(c.id(), node);
    }

    /** What a connection alone says about its host. Pure: tests call it with a list of saved connections. */
    static Optional<HostLink.Target> guess(ConnectionInfo c, List<ConnectionInfo> saved) {
        switch (c.kind()) {
            case SSH:
                return Optional.of(new HostLink.SavedSsh(c.id()));
            case LIBVIRT:
                return libvirtHost(c.address()).map(h -> h.isEmpty() ? new HostLink.Local() : sshTo(h.get(), saved));
            default:
                return Optional.empty();
        }
    }

    /** Empty optional inside: the URI names no host (local); absent: not a URI GPUForge can read a host from. */
    private static Optional<Optional<String>> libvirtHost(String uri) {
        try {
            URI u = new URI(uri.strip());
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if (scheme.startsWith("test")) {
                return Optional.empty();
            }
            if (u.getHost() == null || u.getHost().isEmpty()) {
                return Optional.of(Optional.empty());
            }
            // qemu+tls://host and qemu+tcp://host name the host too; SSH to it is the guess the user confirms
            String user = u.getUserInfo() == null ? "" : u.getUserInfo() + "@";
            boolean ssh = scheme.endsWith("+ssh") || scheme.endsWith("+libssh") || scheme.endsWith("+libssh2");
            return Optional.of(Optional.of(user + u.getHost() + (ssh && u.getPort() > 0 ? ":" + u.getPort() : "")));
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    private static HostLink.Target sshTo(String address, List<ConnectionInfo> saved) {
        int at = address.indexOf('@');
        Optional<String> user = at < 0 ? Optional.empty() : Optional.of(address.substring(0, at));
        String hostPort = address.substring(at + 1);
        return saved.stream().filter(s -> s.kind() == ConnectionInfo.Kind.SSH
                        && user.map(u -> u.equals(s.username())).orElse(true)
                        && (s.address().equals(hostPort) || s.address().equals(hostPort + ":22")
                        || (s.address() + ":22").equals(hostPort)))
                .findFirst().<HostLink.Target>map(s -> new HostLink.SavedSsh(s.id()))
                .orElse(new HostLink.Adhoc(address));
    }
}
