package io.gpuforge.app.passthrough;

import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.host.HostService;
import io.gpuforge.app.connections.ConnectionsService;
import io.gpuforge.app.connections.HostLinks;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.passthrough.Coverage;
import io.gpuforge.domain.passthrough.GpuVerdict;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.connections.HostLink;
import io.gpuforge.domain.pci.NodePci;
import io.gpuforge.domain.passthrough.PassthroughOverrides;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.passthrough.GpuVerdicts;
import io.gpuforge.store.StoreException;
import java.util.List;
import java.util.Optional;

/**
 * "Which GPUs of this node can I pass through?" for the node page: every GPU with its verdict and the checks behind
 * it. When the node is linked to its host (an SSH host, or this computer), the host's facts are read there, so the
 * host checks (IOMMU on, kernel command line, vfio) are known; otherwise the hypervisor's PCI listing is all there
 * is, and the host checks stay unknown. Blocking: call off the FX thread.
 */
public final class NodeReadiness {

    /** The verdicts, and where the facts came from: the node's host itself, or the hypervisor's listing. */
    public record Result(String node, List<GpuVerdict> gpus, boolean fromHost, String source) {
        public Result {
            gpus = List.copyOf(gpus);
        }
    }

    private final Sessions sessions;
    private final HostLinks links;
    private final HostService hosts;
    private final ConnectionsService connections;

    public NodeReadiness(Sessions sessions, HostLinks links, HostService hosts, ConnectionsService connections) {
        this.sessions = sessions;
        this.links = links;
        this.hosts = hosts;
        this.connections = connections;
    }

    public Result of(ConnectionInfo c, String node, HostKeyPrompt prompt)
            throws BackendException, HostException, StoreException {
        Optional<HostLink> link = links.of(c, node).filter(l -> !l.guessed()
                || l.target() instanceof HostLink.Local || l.target() instanceof HostLink.SavedSsh);
        Optional<HostFacts> fromHost = Optional.empty();
        String source = "";
        if (link.isPresent() && link.get().target() instanceof HostLink.SavedSsh) {
            long id = ((HostLink.SavedSsh) link.get().target()).connectionId();
            Optional<ConnectionInfo> ssh = connections.find(id);
            if (ssh.isPresent()) {
                fromHost = Optional.of(hosts.probe(ssh.get(), prompt));
                source = ssh.get().name();
            }
        } else if (link.isPresent() && link.get().target() instanceof HostLink.Local) {
            fromHost = Optional.of(hosts.probeThisComputer());
            source = "local";
        }
        HostFacts facts;
        if (fromHost.isPresent()) {
            facts = fromHost.get();
        } else {
            NodePci pci = sessions.of(c).nodePci(node);
            facts = HostFacts.fromListing(c.nodeHost(node), pci.inventory());
            source = c.name();
        }
        return new Result(node, GpuVerdicts.of(facts, PassthroughOverrides.none(), Coverage.wholeHost()),
                fromHost.isPresent(), source);
    }
}
