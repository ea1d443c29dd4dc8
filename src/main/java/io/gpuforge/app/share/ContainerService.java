package io.gpuforge.app.share;

import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.NodeState;
import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.ContainerInfo;
import io.gpuforge.domain.share.ContainerSpec;
import io.gpuforge.domain.share.ShareReadiness;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.NetworkInfo;
import io.gpuforge.domain.vm.StorageInfo;
import io.gpuforge.share.ContainerParams;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * A node's Proxmox containers: what a new one can be made with (a free id, disk storages, templates, bridges), the
 * API call that makes it, and making it or giving it a GPU, with the GPU's device entries only when the GPU is ready
 * to be shared ({@link ShareService}: its host plan applied), so that the container starts; a running container's
 * devices are not changed.
 */
public final class ContainerService {

    private final ShareService shares;

    public ContainerService(ShareService shares) {
        this.shares = shares;
    }

    /** The lowest id from 100 that no VM or container of the cluster has. Blocking. */
    public int freeId(ConnectionSession session) throws BackendException {
        Set<Integer> used = usedIds(session).keySet();
        int id = 100;
        while (used.contains(id)) {
            id++;
        }
        return id;
    }

    /**
     * Every id a VM or container of the cluster has (ids are the cluster's, not a node's), with whose it is as a
     * message says it ({@code VM render-02's on pve-3090}, {@code a container's on pve-3090}). Blocking.
     */
    public Map<Integer, String> usedIds(ConnectionSession session) throws BackendException {
        Map<Integer, String> used = new TreeMap<>();
        ClusterInventory inventory = session.inventory();
        inventory.vms().forEach(v -> {
            if (v.ref().id().matches("\\d{1,9}")) {
                used.putIfAbsent(Integer.parseInt(v.ref().id()), "VM " + v.name() + "'s on " + v.ref().node());
            }
        });
        for (NodeInfo n : inventory.nodes()) {
            if (n.state() == NodeState.ONLINE) {
                session.containers(n.name()).forEach(c -> used.putIfAbsent(c.vmid(), "a container's on " + n.name()));
            }
        }
        inventory.containers().forEach(c -> used.putIfAbsent(c.vmid(), "a container's on " + c.node()));
        return used;
    }

    /** The node's storages that hold container disks ({@code rootdir}), in the node's order. */
    public List<String> diskStorages(ConnectionSession session, String node) throws BackendException {
        return session.storages(node).stream().filter(st -> st.content().contains("rootdir")).map(StorageInfo::name)
                .toList();
    }

    /** Every container template ({@code vztmpl} volume) on the node's storages that hold them. */
    public List<String> templates(ConnectionSession session, String node) throws BackendException {
        List<String> out = new ArrayList<>();
        for (StorageInfo st : session.storages(node)) {
            if (st.content().contains("vztmpl")) {
                out.addAll(session.volumes(node, st.name(), "vztmpl"));
            }
        }
        return out;
    }

    /** The node's network bridges, active ones first. */
    public List<String> bridges(ConnectionSession session, String node) throws BackendException {
        return session.networks(node).stream().filter(n -> n.kind().equals("bridge") || n.name().startsWith("vmbr"))
                .sorted(java.util.Comparator.comparing(n -> !n.active())).map(NetworkInfo::name).toList();
    }

    /**
     * The API call that {@link #create} makes for {@code spec} with the GPU's devices when one is given, as the
     * window's summary shows it: {@code POST /nodes/NODE/lxc} and one {@code key: value} line per parameter.
     */
    public List<String> createCalls(String node, ContainerSpec spec, Optional<ShareReadiness> gpu) {
        List<String> out = new ArrayList<>(List.of("POST /nodes/" + node + "/lxc"));
        ContainerParams.of(withDevices(spec, gpu.map(ShareReadiness::devices).orElse(List.of())))
                .forEach((k, v) -> out.add("  " + k + ": " + v));
        return out;
    }

    private static ContainerSpec withDevices(ContainerSpec spec, List<ContainerDevice> devices) {
        return new ContainerSpec(spec.vmid(), spec.hostname(), spec.template(), spec.cores(), spec.memoryMiB(),
                spec.storage(), spec.diskGiB(), spec.bridge(), devices, spec.sshPublicKeys(), spec.start());
    }

    /**
     * Creates a container, with the GPU's device entries when {@code gpu} is given: only a GPU ready to be shared
     * (the host plan applied), so that the container starts.
     */
    public TaskOutcome create(ConnectionSession session, String node, ContainerSpec spec, Optional<ShareReadiness> gpu,
                              TaskListener progress, BooleanSupplier cancelled)
            throws ShareService.Refused, BackendException, InterruptedException {
        List<ContainerDevice> devices = gpu.isPresent() ? shares.ready(gpu.get()) : List.of();
        return session.createContainer(node, withDevices(spec, devices), progress, cancelled);
    }

    /** Gives a stopped container the GPU's device entries it does not have yet, at its next free indexes. */
    public ContainerInfo addGpu(ConnectionSession session, String node, int vmid, ShareReadiness gpu)
            throws ShareService.Refused, BackendException {
        List<ContainerDevice> devices = shares.ready(gpu);
        ContainerInfo ct = session.container(node, vmid);
        if (ct.running()) {
            throw new ShareService.Refused("container " + vmid + " (" + ct.name() + ") is running: its devices change only when it"
                    + " starts; stop it first (gpuforge ct stop " + vmid + ")");
        }
        Set<String> have = ct.devices().values().stream().map(ContainerDevice::path).collect(Collectors.toSet());
        Map<Integer, Optional<ContainerDevice>> changes = new LinkedHashMap<>();
        int next = ct.nextDeviceIndex();
        for (ContainerDevice d : devices) {
            if (!have.contains(d.path())) {
                while (ct.devices().containsKey(next) || changes.containsKey(next)) {
                    next++;
                }
                changes.put(next, Optional.of(d));
            }
        }
        if (changes.isEmpty()) {
            return ct;
        }
        return session.setContainerDevices(node, vmid, changes, ct.digest().orElse(""));
    }
}
