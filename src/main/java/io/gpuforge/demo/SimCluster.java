package io.gpuforge.demo;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The state of a simulated Proxmox VE cluster: nodes with PCI devices and IOMMU groups, VMs with their
 * configuration, PCI resource mappings. Thread-safe by its callers (the simulator serialises requests).
 */
public final class SimCluster {

    /** A PCI function as {@code /nodes/{node}/hardware/pci} reports it. */
    public record Pci(String id, int group, String classCode, String vendor, String device, String vendorName,
                      String deviceName) {
    }

    /** A node: name, whether the IOMMU is on, its PCI devices. */
    public record Node(String name, boolean iommu, List<Pci> pci) {
    }

    /** A VM (or template): its node and configuration. */
    public static final class Vm {
        final int vmid;
        String node;
        boolean template;
        String status = "stopped";
        final Map<String, String> config = new TreeMap<>();

        Vm(int vmid, String node) {
            this.vmid = vmid;
            this.node = node;
        }

        String digest() {
            try {
                MessageDigest md = MessageDigest.getInstance("SHA-1");
                md.update(config.toString().getBytes(StandardCharsets.UTF_8));
                return HexFormat.of().formatHex(md.digest());
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** A task that takes simulated time, then applies its effect once. */
    static final class Task {
        final String upid;
        final String node;
        final long startMillis;
        final long durationMillis;
        final List<String> log = new ArrayList<>();
        Runnable effect;
        String exitStatus;
        boolean stopped;

        Task(String upid, String node, long startMillis, long durationMillis, Runnable effect) {
            this.upid = upid;
            this.node = node;
            this.startMillis = startMillis;
            this.durationMillis = durationMillis;
            this.effect = effect;
        }

        /** Finishes the task when its time has come (or it was stopped). */
        void advance(long now) {
            if (exitStatus != null) {
                return;
            }
            if (stopped) {
                exitStatus = "interrupted by signal";
                log.add("TASK ERROR: interrupted by signal");
                return;
            }
            if (now >= startMillis + durationMillis) {
                try {
                    effect.run();
                    exitStatus = "OK";
                    log.add("TASK OK");
                } catch (RuntimeException e) {
                    exitStatus = e.getMessage();
                    log.add("TASK ERROR: " + e.getMessage());
                }
            }
        }
    }

    final Map<String, Task> tasks = new LinkedHashMap<>();
    /** How long simulated tasks take. */
    long taskMillis = 300;
    /** When set, the next clone finds its new id taken by someone else (PVE's nextid does not reserve). */
    boolean raceNextClone;

    /** Makes the next clone find its new id taken, as when two clients clone at once. */
    public synchronized void raceNextClone() {
        raceNextClone = true;
    }

    final List<Node> nodes = new ArrayList<>();
    final Map<Integer, Vm> vms = new TreeMap<>();
    final Map<String, List<String>> mappings = new LinkedHashMap<>();

    /** Three nodes modelled on real listings: 2× RTX 4090, 4× RTX 3090 (one GPU sharing its group), no GPU. */
    public static SimCluster demo() {
        SimCluster c = new SimCluster();
        List<Pci> a = new ArrayList<>(List.of(
                new Pci("0000:00:00.0", 0, "0x060000", "0x1022", "0x14d8", "Advanced Micro Devices, Inc. [AMD]", "Raphael Root Complex"),
                new Pci("0000:01:00.0", 12, "0x030000", "0x10de", "0x2684", "NVIDIA Corporation", "AD102 [GeForce RTX 4090]"),
                new Pci("0000:01:00.1", 12, "0x040300", "0x10de", "0x22ba", "NVIDIA Corporation", "AD102 High Definition Audio Controller"),
                new Pci("0000:02:00.0", 13, "0x030000", "0x10de", "0x2684", "NVIDIA Corporation", "AD102 [GeForce RTX 4090]"),
                new Pci("0000:02:00.1", 13, "0x040300", "0x10de", "0x22ba", "NVIDIA Corporation", "AD102 High Definition Audio Controller")));
        c.nodes.add(new Node("pve-4090", true, a));
        List<Pci> b = new ArrayList<>();
        b.add(new Pci("0000:00:01.0", 2, "0x060400", "0x8086", "0x1901", "Intel Corporation", "6th-10th Gen Core Processor PCIe Controller (x16)"));
        String[] slots = {"01", "02", "03", "04"};
        // the fourth 3090 sits in a chipset slot: its group also holds the chipset's USB controller
        b.add(new Pci("0000:05:00.0", 23, "0x0c0330", "0x8086", "0x7ae0", "Intel Corporation", "Alder Lake-S PCH USB 3.2 xHCI"));
        for (int i = 0; i < slots.length; i++) {
            int g = i == 0 ? 2 : 20 + i;
            b.add(new Pci("0000:" + slots[i] + ":00.0", g, "0x030000", "0x10de", "0x2204", "NVIDIA Corporation", "GA102 [GeForce RTX 3090]"));
            b.add(new Pci("0000:" + slots[i] + ":00.1", g, "0x040300", "0x10de", "0x1aef", "NVIDIA Corporation", "GA102 High Definition Audio Controller"));
        }
        c.nodes.add(new Node("pve-3090", true, b));
        c.nodes.add(new Node("pve-store", false, List.of(
                new Pci("0000:00:17.0", -1, "0x010601", "0x8086", "0x7ae2", "Intel Corporation", "SATA controller"))));
        Vm tpl = new Vm(9000, "pve-3090");
        tpl.template = true;
        tpl.config.putAll(Map.of("name", "ubuntu-24.04-cloud", "memory", "4096", "cores", "4", "machine", "q35",
                "bios", "ovmf", "template", "1"));
        c.vms.put(9000, tpl);
        Vm train = new Vm(101, "pve-4090");
        train.status = "running";
        train.config.putAll(Map.of("name", "train-01", "memory", "65536", "cores", "16", "machine", "q35", "bios", "ovmf",
                "hostpci0", "mapping=gpu-4090-a,pcie=1", "balloon", "0"));
        c.vms.put(101, train);
        c.mappings.put("gpu-4090-a", List.of("node=pve-4090,path=0000:01:00,id=10de:2684,iommugroup=12"));
        return c;
    }

    /** A large cluster for benchmarks: {@code nodes} nodes, {@code vms} VMs, {@code gpus} mapped GPUs. */
    public static SimCluster generated(int nodeCount, int vmCount, int gpuCount) {
        SimCluster c = new SimCluster();
        for (int n = 0; n < nodeCount; n++) {
            List<Pci> pci = new ArrayList<>();
            for (int g = 0; g < gpuCount / nodeCount; g++) {
                pci.add(new Pci(String.format("0000:%02x:00.0", g + 1), 10 + g, "0x030000", "0x10de", "0x2204",
                        "NVIDIA Corporation", "GA102 [GeForce RTX 3090]"));
            }
            c.nodes.add(new Node(String.format("pve%02d", n + 1), true, pci));
        }
        for (int v = 0; v < vmCount; v++) {
            Vm vm = new Vm(100 + v, c.nodes.get(v % nodeCount).name());
            vm.config.putAll(Map.of("name", "vm-" + (100 + v), "memory", "8192", "cores", "4"));
            vm.status = v % 3 == 0 ? "stopped" : "running";
            c.vms.put(vm.vmid, vm);
        }
        int m = 0;
        for (Node n : c.nodes) {
            for (Pci p : n.pci()) {
                c.mappings.put("gpu-" + (m++), List.of("node=" + n.name() + ",path=" + p.id().substring(0, 10)
                        + ",id=10de:2204,iommugroup=" + p.group()));
            }
        }
        return c;
    }
}
