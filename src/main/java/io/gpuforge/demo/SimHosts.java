package io.gpuforge.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The simulated hosts of a simulated cluster, one per node, made on first use in a temp directory and removed on
 * close, or kept in the Demo lab's store across runs. A node reboot asked through the cluster's API (a
 * {@code srvreboot} task, as {@code POST
 * /nodes/{node}/status command=reboot} starts it) reboots the node's host at the task's start.
 */
public final class SimHosts implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SimHosts.class);
    private final SimCluster cluster;
    private final Map<String, SimHost> hosts = new LinkedHashMap<>();
    private final Set<String> seenReboots = new HashSet<>();
    private Path base;
    /** Where the hosts are kept across runs (the Demo lab's store); empty: a temp directory removed on close. */
    private final java.util.Optional<SimStore> store;
    private long epoch;

    private final java.util.concurrent.ConcurrentMap<String, SimHost> live = new java.util.concurrent.ConcurrentHashMap<>();

    public SimHosts(SimCluster cluster) {
        this(cluster, java.util.Optional.empty());
    }

    /** Hosts whose trees are kept in {@code store} across runs, and made again after it was reset. */
    public SimHosts(SimCluster cluster, SimStore store) {
        this(cluster, java.util.Optional.of(store));
    }

    private SimHosts(SimCluster cluster, java.util.Optional<SimStore> store) {
        this.cluster = cluster;
        this.store = store;
        this.base = store.map(SimStore::hosts).orElse(null);
        this.epoch = store.map(SimStore::epoch).orElse(0L);
        cluster.containers.roots = node -> Optional.ofNullable(live.get(node)).map(SimHost::root);
        cluster.containers.hosts = node -> {
            // read without this object's lock: the API answers under the cluster's, which host() takes inside this one
            SimHost h = live.get(node);
            try {
                return h == null ? Optional.empty() : Optional.of(h.deviceNodes());
            } catch (IOException e) {
                return Optional.empty();
            }
        };
        synchronized (cluster) {
            cluster.tasks.values().stream().filter(t -> t.type.equals("srvreboot")).forEach(t -> seenReboots.add(t.upid));
        }
    }

    /** The host of a node of the cluster; empty when the cluster has no such node. */
    public synchronized Optional<SimHost> host(String node) throws IOException {
        SimCluster.Node n;
        synchronized (cluster) {
            n = cluster.node(node);
        }
        if (n == null) {
            return Optional.empty();
        }
        long now = store.isPresent() ? store.get().epoch() : epoch; // one look under the lab's lock
        if (now != epoch) {
            // the lab was reset (by this process or another): its hosts start again
            epoch = now;
            hosts.clear();
            live.clear();
        }
        SimHost h = hosts.get(node);
        if (h == null) {
            if (base == null) {
                base = Files.createTempDirectory("gpuforge-demo-hosts-");
            }
            h = new SimHost(n, base.resolve(node));
            h.kernelLinesFrom(from -> cluster.kernelLines(node, from));
            hosts.put(node, h);
            live.put(node, h);
            synchronized (cluster) {
                cluster.containers.writeAll(node);
            }
            LOG.info("Demo lab: simulated host of {} in {}", node, h.root());
        }
        rebootsAskedOfTheCluster(h);
        return Optional.of(h);
    }

    /** Reboots asked through the API since the last look (each once). */
    private void rebootsAskedOfTheCluster(SimHost h) {
        List<SimTask> fresh;
        synchronized (cluster) {
            fresh = cluster.tasks.values().stream().filter(t -> t.type.equals("srvreboot") && t.node.equals(h.node())
                    && !seenReboots.contains(t.upid)).toList();
            fresh.forEach(t -> seenReboots.add(t.upid));
        }
        fresh.forEach(t -> h.rebootAt(t.startMillis, "reboot (Proxmox VE API: " + t.upid + ")"));
    }

    @Override
    public synchronized void close() {
        hosts.clear();
        if (base != null && store.isEmpty()) {
            try {
                SimBoot.deleteTree(base);
            } catch (IOException e) {
                LOG.warn("The Demo lab's simulated hosts in {} could not be removed: {}", base, e.getMessage());
            }
            base = null;
        }
    }
}
