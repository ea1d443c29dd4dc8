package io.gpuforge.app.share;

import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.host.HostService;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.passthrough.CheckMessages;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.ContainerInfo;
import io.gpuforge.domain.share.GpuShare;
import io.gpuforge.domain.share.NodeShares;
import io.gpuforge.domain.share.ShareReadiness;
import io.gpuforge.share.LegacyMigration;
import io.gpuforge.share.ShareChecks;
import io.gpuforge.share.SharePlanner;
import io.gpuforge.share.ShareUsage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Shares a node's GPU with its Proxmox containers. Every change is refused before anything changes when the GPU
 * cannot be shared (on vfio-pci, Proxmox before 8.1, a device node missing), when the host plan has not been applied
 * yet (the container would not start), or when the container runs (its devices change only at a start); the refusal
 * says why and what would make it possible.
 */
public final class ShareService {

    private final HostService hosts;
    private final PassthroughService passthrough;
    private final CheckMessages messages = new CheckMessages(Locale.ENGLISH);

    public ShareService(HostService hosts, PassthroughService passthrough) {
        this.hosts = hosts;
        this.passthrough = passthrough;
    }

    /** A refused change, with the reason in words. */
    public static final class Refused extends Exception {
        public Refused(String message) {
            super(message);
        }
    }

    /** The node's host's facts (its link, or the Demo lab's simulated host). */
    public HostFacts facts(HostTarget host, HostKeyPrompt prompt) throws HostException {
        return hosts.read(host, prompt).facts();
    }

    public ShareReadiness readiness(HostTarget host, PciAddress gpu, HostKeyPrompt prompt) throws HostException {
        return ShareChecks.evaluate(facts(host, prompt), gpu);
    }

    /** Each GPU of a host with whether it can be shared, and its model name as the host lists it. */
    public record HostGpus(List<ShareReadiness> gpus, Map<PciAddress, String> names) {
        public HostGpus {
            gpus = List.copyOf(gpus);
            names = Map.copyOf(names);
        }

        /** "GeForce RTX 3090" for "NVIDIA Corporation GA102 [GeForce RTX 3090]"; the vendor when unnamed. */
        public String name(ShareReadiness r) {
            String n = names.getOrDefault(r.gpu(), r.vendor().orElse("GPU"));
            int open = n.lastIndexOf('[');
            int close = n.lastIndexOf(']');
            return open >= 0 && close > open + 1 ? n.substring(open + 1, close) : n;
        }
    }

    /**
     * Whether each GPU of the host can be shared with containers, its facts read once: the GPUs (function 0 of each
     * display-class card) in address order.
     */
    public HostGpus readinessOfAll(HostTarget host, HostKeyPrompt prompt) throws HostException {
        HostFacts f = facts(host, prompt);
        List<ShareReadiness> out = new ArrayList<>();
        Map<PciAddress, String> names = new LinkedHashMap<>();
        f.pci().devices().stream().filter(PciDevice::isGpu).filter(d -> d.address().function() == 0)
                .sorted(java.util.Comparator.comparing(d -> d.address().toString()))
                .forEach(d -> {
                    out.add(ShareChecks.evaluate(f, d.address()));
                    d.name().ifPresent(n -> names.put(d.address(), n));
                });
        return new HostGpus(out, names);
    }

    /** The checks in words, with their fixes, one per line. */
    public List<String> explain(ShareReadiness r) {
        return r.checks().stream().map(c -> status(c) + " " + text(c, " Fix: ")).toList();
    }

    /** A check's message and, when it has one, its fix after {@code fixLead}. */
    private String text(Check c, String fixLead) {
        return messages.message(c) + messages.fix(c).map(f -> fixLead + f).orElse("");
    }

    private static String status(Check c) {
        return "[" + c.status().name().toLowerCase(Locale.ROOT) + "]";
    }

    /** The host plan for sharing a GPU, nothing changed. */
    public PassthroughPlan hostPlan(HostTarget host, PciAddress gpu, HostKeyPrompt prompt)
            throws HostException, PlanBlockedException {
        return SharePlanner.plan(facts(host, prompt), gpu);
    }

    /** Applies the host plan (journal, backups; {@code gpuforge rollback} undoes it). */
    public Optional<PassthroughService.Applied> applyHostPlan(HostTarget host, PciAddress gpu,
                                                              Predicate<PassthroughPlan> confirm, ApplyProgress progress,
                                                              HostKeyPrompt prompt)
            throws HostException, PlanBlockedException {
        return passthrough.applyPlanned(host, f -> SharePlanner.plan(f, gpu), confirm, progress, prompt);
    }

    /**
     * Moves a stopped container from the old raw lxc lines to devN entries: a plan on its configuration file on the
     * node ({@code /etc/pve/lxc/ID.conf}), applied after {@code confirm} with the journal; a running one is refused.
     */
    public Optional<PassthroughService.Applied> migrate(HostTarget host, int vmid, boolean running,
                                                        Predicate<PassthroughPlan> confirm, ApplyProgress progress,
                                                        HostKeyPrompt prompt)
            throws HostException, PlanBlockedException {
        return passthrough.applyPlanned(host, f -> LegacyMigration.plan(f, vmid, running), confirm, progress, prompt);
    }

    /** Which containers of a node share which GPU; the host's facts match nodes to GPUs when there are any. */
    public List<GpuShare> shares(ConnectionSession session, String node, Optional<HostFacts> facts)
            throws BackendException {
        return ShareUsage.of(node, facts, session.containers(node));
    }

    /**
     * How a node's GPUs are used by its containers and which driver holds each, for the window's views: the
     * containers when the backend has them, the host's facts when GPUForge knows the node's host (a link, the Demo
     * lab's simulated host). What cannot be read is said in the value, never thrown: a view shows it as unknown.
     * A host whose key is not known yet is not asked about here (the host pages ask). Blocking.
     */
    public NodeShares nodeShares(ConnectionSession session, String node) {
        Optional<String> factsMissing = Optional.empty();
        Optional<HostFacts> facts = Optional.empty();
        ConnectionInfo c = session.connection();
        if (!hosts.hasHost(c, node)) {
            factsMissing = Optional.of("no host is linked to " + node + ": link it to read its GPUs' drivers and"
                    + " device nodes");
        } else {
            try {
                facts = Optional.of(facts(new HostTarget.Linked(c, node), (h, k, f) -> false));
            } catch (HostException e) {
                factsMissing = Optional.of(e.getMessage());
            }
        }
        List<ContainerInfo> cts = List.of();
        Optional<String> containersMissing = Optional.empty();
        if (!session.can(Capability.CONTAINERS)) {
            containersMissing = Optional.of(session.connection().kind() + " has no containers");
        } else {
            try {
                cts = session.containers(node);
            } catch (BackendException e) {
                containersMissing = Optional.of(e.getMessage());
            }
        }
        Map<String, String> drivers = new LinkedHashMap<>();
        facts.ifPresent(f -> f.pci().devices().stream().filter(PciDevice::isGpu)
                .forEach(d -> d.driver().ifPresent(v -> drivers.put(d.address().toString(), v))));
        return new NodeShares(node, ShareUsage.of(node, facts, cts), drivers, factsMissing, containersMissing);
    }

    /**
     * A node's PCI listing with its drivers in use from the node's host ({@link HostService#withDrivers}), for the
     * window's IOMMU views; a host whose key is not known yet is not asked, and one that cannot be read leaves the
     * drivers unknown. Blocking.
     */
    public io.gpuforge.domain.pci.PciInventory withDrivers(ConnectionSession session, String node,
                                                           io.gpuforge.domain.pci.PciInventory pci) {
        try {
            return hosts.withDrivers(session.connection(), node, pci, (h, k, f) -> false);
        } catch (HostException e) {
            return pci;
        }
    }

    /** The plan that moves a container from the old raw lxc lines to devN entries, nothing changed. */
    public PassthroughPlan migrationPlan(HostTarget host, int vmid, boolean running, HostKeyPrompt prompt)
            throws HostException, PlanBlockedException {
        return LegacyMigration.plan(facts(host, prompt), vmid, running);
    }

    /** The devices of a GPU ready to be shared, or why it is not. */
    List<ContainerDevice> ready(ShareReadiness r) throws Refused {
        if (r.verdict().kind() == Verdict.Kind.BLOCKED) {
            throw new Refused(r.gpu() + " cannot be shared with containers: " + String.join(" ", explainFailed(r)));
        }
        if (r.verdict().kind() == Verdict.Kind.NEEDS_HOST_SETUP) {
            throw new Refused(r.gpu() + " needs its host plan first, or the container would not start: "
                    + String.join(" ", explainFailed(r)) + " Apply it with gpuforge share apply (same connection,"
                    + " --node and --gpu), then try again.");
        }
        return r.devices();
    }

    private List<String> explainFailed(ShareReadiness r) {
        return r.checks().stream().filter(c -> c.status() != Check.Status.PASS)
                .map(c -> text(c, " ")).toList();
    }
}
