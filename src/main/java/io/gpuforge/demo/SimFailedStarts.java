package io.gpuforge.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Demo lab's VMs that do not start, one per cause, each failing as Proxmox VE and the node's kernel write it
 * (the lines from real reports in the diagnosis fixtures) until what causes it is fixed on the VM or its host; each
 * was tried once twenty minutes before the lab started, so its failed start is in the task history:
 * <ul>
 *   <li>120 {@code igd-desk} (pve-3090): the Intel iGPU at 00:02.0 with an emulated VGA card →
 *       {@code vga-slot-conflict}, until {@code vga: none};</li>
 *   <li>121 {@code llm-70b} (pve-3090, the whole RTX 3090 at 01:00, which render-02 is given too: one of them runs
 *       at a time): 192 GiB with ballooning and memory hotplug → {@code dma-map-failed}, until both are off;</li>
 *   <li>122 {@code render-02} (pve-3090, only the GPU function 01:00.0 mapped): its audio function stays on
 *       snd_hda_intel → {@code group-not-viable}, until the host binds the card's functions to vfio-pci;</li>
 *   <li>124 {@code nas-hba} (pve-store, its SATA controller for a NAS): the host's IOMMU is off in its firmware →
 *       {@code iommu-off}; kernel arguments alone do not end it (the firmware is the user's to change).</li>
 * </ul>
 */
final class SimFailedStarts {

    private SimFailedStarts() {
    }

    static void add(SimCluster c) {
        SimVm igd = vm(c, 120, "pve-3090", Map.of("name", "igd-desk", "memory", "8192", "cores", "4",
                "machine", "pc-i440fx-8.1", "vga", "std", "hostpci0", "0000:00:02.0,legacy-igd=1", "ostype", "win11",
                "scsi0", "local-zfs:vm-120-disk-0,size=64G", "net0", "virtio=BC:24:11:5E:12:00,bridge=vmbr0"));
        fail(c, igd, List.of("kvm: -device vfio-pci,host=0000:00:02.0,id=hostpci0,bus=pci.0,addr=0x2,"
                        + "x-igd-gms=1: PCI: slot 2 function 0 not available for vfio-pci, in use by VGA"),
                "start failed: QEMU exited with code 1", List.of(),
                vm -> !first(vm.config.get("vga")).equals("none"));

        c.mappings.put("llm-3090", List.of("node=pve-3090,path=0000:01:00,id=10de:2204,subsystem-id=3842:3975,"
                + "iommugroup=2"));
        SimVm llm = vm(c, 121, "pve-3090", Map.of("name", "llm-70b", "memory", "196608", "balloon", "65536",
                "hotplug", "disk,network,usb,memory,cpu", "numa", "1", "cores", "32", "machine", "q35",
                "bios", "ovmf", "hostpci0", "mapping=llm-3090,pcie=1", "agent", "1"));
        llm.config.put("scsi0", "local-zfs:vm-121-disk-0,iothread=1,size=400G");
        fail(c, llm, List.of("kvm: -device vfio-pci,host=0000:01:00.0,id=hostpci0.0,bus=ich9-pcie-port-1,addr=0x0.0,"
                        + "multifunction=on: VFIO_MAP_DMA failed: Cannot allocate memory",
                        "kvm: -device vfio-pci,host=0000:01:00.0,id=hostpci0.0,bus=ich9-pcie-port-1,addr=0x0.0,"
                                + "multifunction=on: vfio 0000:01:00.0: failed to setup container for group 2:"
                                + " memory listener initialization failed: Region pc.ram: vfio_dma_map(0x55d3c8a1e9a0,"
                                + " 0x100000000, 0x2f80000000, 0x7f1e40000000) = -12 (Cannot allocate memory)"),
                "start failed: QEMU exited with code 1",
                List.of("vfio_pin_pages_remote: RLIMIT_MEMLOCK (206158430208) exceeded"),
                vm -> !"0".equals(vm.config.get("balloon"))
                        || Arrays.asList(vm.config.getOrDefault("hotplug", "").split(",")).contains("memory"));

        c.mappings.put("render-3090", List.of("node=pve-3090,path=0000:01:00.0,id=10de:2204,subsystem-id=3842:3975,"
                + "iommugroup=2"));
        SimVm render = vm(c, 122, "pve-3090", Map.of("name", "render-02", "memory", "32768", "cores", "12",
                "machine", "q35", "bios", "ovmf", "hostpci0", "mapping=render-3090,pcie=1", "agent", "1",
                "scsi0", "local-zfs:vm-122-disk-0,iothread=1,size=120G"));
        fail(c, render, List.of("kvm: -device vfio-pci,host=0000:01:00.0,id=hostpci0,bus=ich9-pcie-port-1,addr=0x0:"
                        + " vfio 0000:01:00.0: group 2 is not viable",
                        "Please ensure all devices within the iommu_group are bound to their vfio bus driver."),
                "start failed: QEMU exited with code 1",
                List.of("vfio-pci 0000:01:00.0: vgaarb: changed VGA decodes: olddecodes=io+mem,decodes=io+mem:"
                        + "owns=none"),
                vm -> !driver(c, "pve-3090", "0000:01:00.1").equals("vfio-pci"));

        SimVm nas = vm(c, 124, "pve-store", Map.of("name", "nas-hba", "memory", "16384", "cores", "4",
                "machine", "q35", "hostpci0", "0000:00:17.0", "ostype", "other",
                "scsi0", "local-lvm:vm-124-disk-0,size=16G", "net0", "virtio=BC:24:11:5E:12:04,bridge=vmbr0"));
        fail(c, nas, List.of(), "cannot prepare PCI pci device 0000:00:17.0: no IOMMU detected, please activate it."
                        + "See Documentation for further information.",
                List.of(), vm -> !iommuGroups(c, "pve-store"));
    }

    private static SimVm vm(SimCluster c, int vmid, String node, Map<String, String> config) {
        SimVm vm = new SimVm(vmid, node);
        vm.config.putAll(config);
        c.vms.put(vmid, vm);
        return vm;
    }

    /**
     * Every start of {@code vm} fails so while {@code fails}; one did before the lab started (120 fifty minutes before,
     * each next ten minutes later: a node's kernel log read around one start holds no other's lines).
     */
    private static void fail(SimCluster c, SimVm vm, List<String> log, String error, List<String> kernel,
                             java.util.function.Predicate<SimVm> fails) {
        SimCluster.StartFailure f = new SimCluster.StartFailure(log, error, kernel, fails);
        c.startFailures.put(vm.vmid, f);
        c.failedStartAt(vm, System.currentTimeMillis() - (50 - 10L * (vm.vmid - 120)) * 60_000L, f);
    }

    /** The driver of a function on the node's simulated host now; the host's default before it was made. */
    private static String driver(SimCluster c, String node, String address) {
        Optional<Path> root = c.containers.roots.apply(node);
        if (root.isEmpty()) {
            return "snd_hda_intel";
        }
        Path link = root.get().resolve("sys/bus/pci/devices/" + address + "/driver");
        try {
            return Files.isSymbolicLink(link) ? Files.readSymbolicLink(link).getFileName().toString() : "none";
        } catch (java.io.IOException e) {
            return "none";
        }
    }

    /** Whether the node's simulated host has IOMMU groups now (its firmware turns the IOMMU on). */
    private static boolean iommuGroups(SimCluster c, String node) {
        Optional<Path> root = c.containers.roots.apply(node);
        if (root.isEmpty()) {
            return false;
        }
        try (var groups = Files.list(root.get().resolve("sys/kernel/iommu_groups"))) {
            return groups.findAny().isPresent();
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** The first field of a property string, without its {@code type=}. */
    private static String first(String v) {
        String f = v == null ? "" : v.split(",", 2)[0];
        return f.startsWith("type=") ? f.substring(5) : f;
    }
}
