package io.gpuforge.demo;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The state of a simulated Proxmox VE cluster: nodes with PCI devices and IOMMU groups, VMs with their
 * configuration (and pending changes), PCI resource mappings, tasks, guest-agent processes and downloaded
 * files. Thread-safe by its callers (the simulator serialises requests).
 */
public final class SimCluster {

    /** A PCI function as {@code /nodes/{node}/hardware/pci} reports it. */
    public record Pci(String id, int group, String classCode, String vendor, String device, String vendorName,
                      String deviceName, String subsystemVendor, String subsystemDevice) {
        public Pci(String id, int group, String classCode, String vendor, String device, String vendorName,
                   String deviceName) {
            this(id, group, classCode, vendor, device, vendorName, deviceName, "", "");
        }
    }

    /** A node: name, whether the IOMMU is on, its PCI devices. */
    public record Node(String name, boolean iommu, List<Pci> pci) {
    }

    /** A storage every node has: name, type and the content types it holds. */
    record Storage(String name, String type, List<String> content) {
        Storage {
            content = List.copyOf(content);
        }
    }

    /** The storages of every simulated node: a directory for ISOs and imports, a ZFS pool for VM disks. */
    static final List<Storage> STORAGES = List.of(new Storage("local", "dir", List.of("iso", "vztmpl", "backup", "import", "snippets")),
            new Storage("local-zfs", "zfspool", List.of("images", "rootdir")));

    static Storage storage(String name) {
        return STORAGES.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
    }

    /** A file on a storage that is not a VM disk: an ISO image, a disk image to import. */
    record Volume(String volid, String content, long size) {
    }

    /** A command run by a guest agent: it runs for {@code durationMillis}, then has exited with its code. */
    record Process(long startMillis, long durationMillis, int exitCode, String out, String err) {
        boolean exited(long now) {
            return now >= startMillis + durationMillis;
        }
    }

    final Map<String, SimTask> tasks = new LinkedHashMap<>();
    /** How long a started guest takes until its agent answers. */
    long agentBootMillis;
    /** cloud-init modules that fail in every guest, with the output they leave */
    final Map<String, String> failingModules = new LinkedHashMap<>();
    /** How long simulated tasks take. */
    long taskMillis = 300;
    /** When set, the next clone finds its new id taken by someone else (PVE's nextid does not reserve). */
    boolean raceNextClone;
    /** When set, the next create finds its new id taken by someone else (between nextid and the create). */
    boolean raceNextCreate;
    final List<Node> nodes = new ArrayList<>();
    final Map<Integer, SimVm> vms = new TreeMap<>();
    final SimContainers containers = new SimContainers(); // the LXC containers and the hosts' device nodes
    final Map<String, List<String>> mappings = new LinkedHashMap<>();
    /** per VM id: guest-agent processes by pid */
    final Map<Integer, Map<Long, Process>> processes = new TreeMap<>();
    long nextPid = 4242;
    /** per "node/storage": ISO images and importable disk images (VM disks are read from the VM configurations) */
    final Map<String, List<Volume>> files = new LinkedHashMap<>();

    /** per user or token: privileges it does not hold (a token with privilege separation, a trimmed role) */
    final Map<String, Set<String>> withheld = new LinkedHashMap<>();

    /** Takes privileges away from a user or token ({@code root@pam!gpuforge}), as its ACL would in PVE. */
    public synchronized void withhold(String user, String... privileges) {
        withheld.computeIfAbsent(user, u -> new TreeSet<>()).addAll(List.of(privileges));
    }

    /** Makes the next clone find its new id taken, as when two clients clone at once. */
    public synchronized void raceNextClone() {
        raceNextClone = true;
    }

    /** Makes the next VM create find its id taken, as when someone else creates a VM at the same time. */
    public synchronized void raceNextCreate() {
        raceNextCreate = true;
    }

    /** How long each simulated task takes from now on (a slow download or create, to cancel in a test). */
    public synchronized void taskMillis(long millis) {
        taskMillis = millis;
    }

    /** Lets the guest agent of a VM stop answering (or answer again), as when qemu-guest-agent is not running. */
    public synchronized void agentAnswers(int vmid, boolean answers) {
        vms.get(vmid).agentAnswers = answers;
    }

    /** How long the guest agent of a VM started from now on takes to answer (its guest boots). */
    public synchronized void agentBootMillis(long millis) {
        agentBootMillis = millis;
    }

    /**
     * How the next starts of a VM fail: the lines its task log gets, the error the task ends with, the lines the
     * node's kernel logs at that moment, and whether it still fails (a fix made on the VM or its host ends it).
     */
    record StartFailure(List<String> log, String error, List<String> kernel, java.util.function.Predicate<SimVm> fails) {
        StartFailure {
            log = List.copyOf(log);
            kernel = List.copyOf(kernel);
        }
    }

    /** A line of a node's kernel log, as its host logged it. */
    record KernelLine(String node, long millis, String text) {
    }

    /** The kernel lines the nodes logged while the cluster ran (a failed start's), oldest first. */
    final List<KernelLine> kernelLines = new ArrayList<>();

    /** The kernel lines {@code node} logged since {@code fromMillis}. */
    synchronized List<KernelLine> kernelLines(String node, long fromMillis) {
        return kernelLines.stream().filter(l -> l.node().equals(node) && l.millis() >= fromMillis).toList();
    }

    final Map<Integer, StartFailure> startFailures = new TreeMap<>();

    /**
     * Makes every start of VM {@code vmid} fail as PVE writes it: {@code log} goes into the {@code qmstart} task's log
     * (the lines QEMU and the kernel printed), which ends in {@code TASK ERROR: error}; null {@code error} lets it
     * start again.
     */
    public synchronized void failStarts(int vmid, List<String> log, String error) {
        if (error == null) {
            startFailures.remove(vmid);
        } else {
            startFailures.put(vmid, new StartFailure(log, error, List.of(), vm -> true));
        }
    }

    /** Makes {@code cloud-init single --name MODULE} fail in every guest, leaving {@code output} on its stderr (null: work again). */
    public synchronized void failCloudInitModule(String module, String output) {
        if (output == null) {
            failingModules.remove(module);
        } else {
            failingModules.put(module, output);
        }
    }

    /** A file written in a VM's guest through the agent; empty when there is none. */
    public synchronized Optional<byte[]> guestFile(int vmid, String path) {
        SimVm vm = vms.get(vmid);
        return vm == null ? Optional.empty() : Optional.ofNullable(vm.files.get(path)).map(byte[]::clone);
    }

    /** Every file a VM's guest holds now (written through the agent and not removed), by path. */
    public synchronized Map<String, byte[]> guestFiles(int vmid) {
        SimVm vm = vms.get(vmid);
        Map<String, byte[]> out = new TreeMap<>();
        if (vm != null) {
            vm.files.forEach((path, bytes) -> out.put(path, bytes.clone()));
        }
        return out;
    }

    /** The last content the agent wrote to {@code path} in a VM's guest, also when the file was removed since. */
    public synchronized Optional<byte[]> guestFileWritten(int vmid, String path) {
        SimVm vm = vms.get(vmid);
        return vm == null ? Optional.empty() : Optional.ofNullable(vm.written.get(path)).map(byte[]::clone);
    }

    /** How often a VM's cloud-init drive was written again through the API ({@code PUT …/cloudinit}). */
    public synchronized int cloudInitDrivesWritten(int vmid) {
        SimVm vm = vms.get(vmid);
        return vm == null ? 0 : vm.cloudInitDrives;
    }

    /** The mode of a directory in a VM's guest ({@code 0755} unless mkdir -m or chmod set another). */
    public synchronized Optional<String> guestDirMode(int vmid, String dir) {
        SimVm vm = vms.get(vmid);
        return vm == null || !vm.dirs.contains(dir) ? Optional.empty()
                : Optional.of(vm.modes.getOrDefault(dir, "0755"));
    }

    /** Makes a directory in a VM's guest as an earlier run or the image left it (tests). */
    public synchronized void guestDir(int vmid, String dir, String mode) {
        SimVm vm = vms.get(vmid);
        for (String d = dir; !d.isEmpty(); d = d.substring(0, d.lastIndexOf('/'))) {
            vm.dirs.add(d);
        }
        vm.modes.put(dir, mode);
    }

    /** The cloud-init modules run in a VM's guest through the agent, in order. */
    public synchronized List<String> cloudInitRuns(int vmid) {
        SimVm vm = vms.get(vmid);
        return vm == null ? List.of() : List.copyOf(vm.cloudInitRuns);
    }

    /** Finishes every task whose time has come: PVE's workers run whether or not anyone asks. */
    void advanceTasks(long now) {
        tasks.values().forEach(t -> t.advance(now));
    }

    /** Starts a task as PVE's workers do: it answers its UPID at once and ends after {@link #taskMillis}. */
    String task(String node, String type, String id, String user, Runnable effect) {
        return task(node, type, id, user, effect, System.currentTimeMillis());
    }

    /**
     * A start of {@code vm} that failed at {@code at} as {@code f} says, finished: its task with its log, and the lines
     * the node's kernel logged then (the Demo lab's VMs that were tried before the user came).
     */
    void failedStartAt(SimVm vm, long at, StartFailure f) {
        String upid = task(vm.node, "qmstart", String.valueOf(vm.vmid), "root@pam", () -> {
            throw new IllegalStateException(f.error());
        }, at);
        SimTask t = tasks.get(upid);
        t.log.addAll(f.log());
        t.advance(at + taskMillis);
        f.kernel().forEach(l -> kernelLines.add(new KernelLine(vm.node, at, l)));
    }

    private String task(String node, String type, String id, String user, Runnable effect, long now) {
        String upid = String.format("UPID:%s:%08X:%08X:%08X:%s:%s:%s:", node, (int) (Math.abs(now) % 0x7fffffff),
                (int) (now / 10 % 0x7fffffff) + tasks.size(), now / 1000, type, id, user);
        SimTask t = new SimTask(upid, node, type, id, now, taskMillis, effect);
        t.log.add("starting " + type + (id.isEmpty() ? "" : " " + id) + " on " + node);
        t.log.add("progress 50%");
        tasks.put(upid, t);
        return upid;
    }

    /** A configuration's digest as PVE gives one: SHA-1 of its text, in hex. */
    static String digest(String configuration) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(configuration.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    Node node(String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst().orElse(null);
    }

    /** Three nodes modelled on real listings: 2× RTX 4090, 4× RTX 3090 (one GPU sharing its group), no GPU. */
    public static SimCluster demo() {
        SimCluster c = new SimCluster();
        List<Pci> a = new ArrayList<>(List.of(
                new Pci("0000:00:00.0", 0, "0x060000", "0x1022", "0x14d8", "Advanced Micro Devices, Inc. [AMD]", "Raphael Root Complex"),
                new Pci("0000:01:00.0", 12, "0x030000", "0x10de", "0x2684", "NVIDIA Corporation", "AD102 [GeForce RTX 4090]", "0x1043", "0x889d"),
                new Pci("0000:01:00.1", 12, "0x040300", "0x10de", "0x22ba", "NVIDIA Corporation", "AD102 High Definition Audio Controller", "0x1043", "0x889d"),
                new Pci("0000:02:00.0", 13, "0x030000", "0x10de", "0x2684", "NVIDIA Corporation", "AD102 [GeForce RTX 4090]", "0x1458", "0x40bf"),
                new Pci("0000:02:00.1", 13, "0x040300", "0x10de", "0x22ba", "NVIDIA Corporation", "AD102 High Definition Audio Controller", "0x1458", "0x40bf")));
        c.nodes.add(new Node("pve-4090", true, a));
        List<Pci> b = new ArrayList<>();
        b.add(new Pci("0000:00:01.0", 2, "0x060400", "0x8086", "0x1901", "Intel Corporation", "6th-10th Gen Core Processor PCIe Controller (x16)"));
        String[] slots = {"01", "02", "03", "04"};
        // the fourth 3090 sits in a chipset slot: its group also holds the chipset's USB controller
        b.add(new Pci("0000:05:00.0", 23, "0x0c0330", "0x8086", "0x7ae0", "Intel Corporation", "Alder Lake-S PCH USB 3.2 xHCI"));
        for (int i = 0; i < slots.length; i++) {
            int g = i == 0 ? 2 : 20 + i;
            b.add(new Pci("0000:" + slots[i] + ":00.0", g, "0x030000", "0x10de", "0x2204", "NVIDIA Corporation", "GA102 [GeForce RTX 3090]", "0x3842", "0x3975"));
            b.add(new Pci("0000:" + slots[i] + ":00.1", g, "0x040300", "0x10de", "0x1aef", "NVIDIA Corporation", "GA102 High Definition Audio Controller", "0x3842", "0x3975"));
        }
        c.nodes.add(new Node("pve-3090", true, b));
        c.nodes.add(new Node("pve-store", false, List.of(
                new Pci("0000:00:17.0", -1, "0x010601", "0x8086", "0x7ae2", "Intel Corporation", "SATA controller"))));
        for (Node n : c.nodes) {
            c.files.put(n.name() + "/local", new ArrayList<>(List.of(
                    new Volume("local:iso/ubuntu-24.04-live-server-amd64.iso", "iso", 2_800_000_000L),
                    new Volume("local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst", "vztmpl", 126_000_000L))));
        }
        SimContainers.demo(c.containers);
        SimVm tpl = new SimVm(9000, "pve-3090");
        tpl.template = true;
        tpl.config.putAll(Map.of("name", "ubuntu-24.04-cloud", "memory", "4096", "cores", "4", "machine", "q35",
                "bios", "ovmf", "template", "1", "scsi0", "local-zfs:base-9000-disk-0,size=32G",
                "net0", "virtio=BC:24:11:5E:90:00,bridge=vmbr0", "agent", "1", "ostype", "l26"));
        c.vms.put(9000, tpl);
        SimVm train = new SimVm(101, "pve-4090");
        train.status = "running";
        train.config.putAll(Map.of("name", "train-01", "memory", "65536", "cores", "16", "machine", "q35", "bios", "ovmf",
                "hostpci0", "mapping=gpu-4090-a,pcie=1", "balloon", "0", "agent", "1",
                "scsi0", "local-zfs:vm-101-disk-0,iothread=1,size=200G",
                "efidisk0", "local-zfs:vm-101-disk-1,efitype=4m,pre-enrolled-keys=0,size=1M"));
        train.config.put("net0", "virtio=BC:24:11:3A:01:01,bridge=vmbr0,firewall=1");
        c.vms.put(101, train);
        c.mappings.put("gpu-4090-a", List.of("node=pve-4090,path=0000:01:00,id=10de:2684,subsystem-id=1043:889d,iommugroup=12"));
        SimFailedStarts.add(c);
        return c;
    }

    /**
     * The Demo lab plus what the backend contract suite needs: a stopped VM 102 on pve-4090 without a GPU, and
     * the second RTX 4090 (0000:02:00) mapped as {@code gpu-4090-b} and used by no VM.
     */
    public static SimCluster contractLab() {
        SimCluster c = demo();
        SimVm dev = new SimVm(102, "pve-4090");
        dev.config.putAll(Map.of("name", "dev-01", "memory", "8192", "cores", "4", "sockets", "1", "ostype", "l26",
                "scsihw", "virtio-scsi-single", "scsi0", "local-zfs:vm-102-disk-0,iothread=1,size=32G",
                "ide2", "local:iso/ubuntu-24.04-live-server-amd64.iso,media=cdrom",
                "net0", "virtio=BC:24:11:3A:01:02,bridge=vmbr0,firewall=1"));
        c.vms.put(102, dev);
        c.mappings.put("gpu-4090-b", List.of("node=pve-4090,path=0000:02:00,id=10de:2684,subsystem-id=1458:40bf,iommugroup=13"));
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
            SimVm vm = new SimVm(100 + v, c.nodes.get(v % nodeCount).name());
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
