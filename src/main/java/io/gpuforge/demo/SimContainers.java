package io.gpuforge.demo;

import java.util.ArrayList;
import java.util.Optional;
import java.util.function.Function;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The simulated cluster's LXC containers and the device nodes each node's host has ({@code /dev/nvidia0}…), which
 * a container's {@code devN} entries must name for it to start, as {@code pct start} checks.
 */
final class SimContainers {

    /** A container: its node, state, configuration and raw {@code lxc.*} lines. */
    static final class Ct {
        final int vmid;
        final String node;
        String status = "stopped";
        final Map<String, String> config = new TreeMap<>();
        final List<List<String>> lxc = new ArrayList<>();

        Ct(int vmid, String node) {
            this.vmid = vmid;
            this.node = node;
        }

        /** The configuration file as pmxcfs holds it ({@code /etc/pve/lxc/ID.conf}). */
        String text() {
            StringBuilder b = new StringBuilder();
            config.forEach((k, v) -> b.append(k).append(": ").append(v).append('\n'));
            lxc.forEach(l -> b.append(l.get(0)).append(": ").append(l.get(1)).append('\n'));
            return b.toString();
        }

        /** Takes the configuration from the file's text (an edit on the node itself). */
        void read(String text) {
            config.clear();
            lxc.clear();
            for (String line : text.split("\n")) {
                if (line.startsWith("[")) {
                    break;
                }
                int colon = line.indexOf(':');
                if (line.startsWith("#") || colon <= 0) {
                    continue;
                }
                String k = line.substring(0, colon).strip();
                String v = line.substring(colon + 1).strip();
                if (k.startsWith("lxc.")) {
                    lxc.add(List.of(k, v));
                } else {
                    config.put(k, v);
                }
            }
        }

        String digest() {
            return SimCluster.digest(config + "|" + lxc);
        }
    }

    final Map<Integer, Ct> byId = new TreeMap<>();
    /** node → the device nodes its simulated host has now, once one is running (SimHosts sets it) */
    volatile Function<String, Optional<Set<String>>> hosts = node -> Optional.empty();

    /** node → the root of its simulated host's tree, once one is running (SimHosts sets it) */
    volatile Function<String, Optional<java.nio.file.Path>> roots = node -> Optional.empty();

    /**
     * The container's file on its node's host, the cluster file system's view: an edit made there (a move to devN) is
     * what the API answers next, and what the API changes is written there.
     */
    Ct synced(Ct ct) {
        Optional<java.nio.file.Path> f = file(ct);
        if (f.isPresent() && java.nio.file.Files.isRegularFile(f.get())) {
            try {
                String text = io.gpuforge.bounded.BoundedStreams.readString(f.get(), 1 << 20);
                if (!text.equals(ct.text())) {
                    ct.read(text);
                }
            } catch (java.io.IOException e) {
                // the API's view stands
            }
        }
        return ct;
    }

    /** Writes the container's file on its node's host (removes it for a container that is gone). */
    void write(Ct ct, boolean exists) {
        Optional<java.nio.file.Path> f = file(ct);
        if (f.isEmpty()) {
            return;
        }
        try {
            if (exists) {
                java.nio.file.Files.createDirectories(f.get().getParent());
                java.nio.file.Files.writeString(f.get(), ct.text());
            } else {
                java.nio.file.Files.deleteIfExists(f.get());
            }
        } catch (java.io.IOException e) {
            // the host's view lags; the API's stands
        }
    }

    /** Writes the files of every container of a node (its host was just made). */
    void writeAll(String node) {
        byId.values().stream().filter(ct -> ct.node.equals(node)).forEach(ct -> write(ct, true));
    }

    private Optional<java.nio.file.Path> file(Ct ct) {
        return roots.apply(ct.node).map(r -> r.resolve("etc/pve/lxc/" + ct.vmid + ".conf"));
    }

    /** The device nodes a node's host has: its simulated host's, else what a fresh boot makes ({@link #defaults}). */
    Set<String> devices(SimCluster c, String node) {
        return hosts.apply(node).orElseGet(() -> defaults(c, node));
    }

    /**
     * A host that did nothing for passthrough: each NVIDIA GPU on the driver with its {@code /dev/nvidiaN} and
     * {@code /dev/nvidiactl}; {@code /dev/nvidia-uvm} only after the driver's first use, so not at boot.
     */
    static Set<String> defaults(SimCluster c, String node) {
        Set<String> out = new LinkedHashSet<>();
        SimCluster.Node n = c.node(node);
        int minor = 0;
        for (SimCluster.Pci p : n == null ? List.<SimCluster.Pci>of() : n.pci()) {
            if ("nvidia".equals(SimHostTree.hostDriver(p))) {
                out.add("/dev/nvidia" + minor++);
            }
        }
        if (minor > 0) {
            out.add("/dev/nvidiactl");
        }
        return out;
    }

    /**
     * The Demo lab's containers on pve-3090, whose fourth RTX 3090 (0000:04:00.0, in a group with the chipset's USB
     * controller, so a poor choice to pass through) stays with the host: "media-01" got it the old way, with raw
     * cgroup rules and bind mounts, before Proxmox VE 8.1.
     */
    static void demo(SimContainers s) {
        Ct media = new Ct(201, "pve-3090");
        media.config.putAll(Map.of("hostname", "media-01", "arch", "amd64", "cores", "4", "memory", "4096",
                "ostype", "debian", "rootfs", "local-zfs:subvol-201-disk-0,size=16G", "unprivileged", "1",
                "net0", "name=eth0,bridge=vmbr0,hwaddr=BC:24:11:6C:02:01,ip=dhcp,type=veth"));
        for (String[] l : new String[][] {{"lxc.cgroup2.devices.allow", "c 195:* rwm"},
                {"lxc.cgroup2.devices.allow", "c 508:* rwm"},
                {"lxc.mount.entry", "/dev/nvidia3 dev/nvidia3 none bind,optional,create=file"},
                {"lxc.mount.entry", "/dev/nvidiactl dev/nvidiactl none bind,optional,create=file"},
                {"lxc.mount.entry", "/dev/nvidia-uvm dev/nvidia-uvm none bind,optional,create=file"}}) {
            media.lxc.add(List.of(l[0], l[1]));
        }
        s.byId.put(201, media);
    }
}
