package io.gpuforge.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the tree of a simulated Proxmox VE host: the files a real host has where GPUForge reads and edits them
 * ({@code /etc}, {@code /proc}, {@code /sys} laid out as the kernel does), for one node of a {@link SimCluster}.
 * The boot-time parts (driver and IOMMU-group links, {@code /proc/cmdline}) are {@link SimBoot}'s.
 */
final class SimHostTree {

    /** How the host boots and what it runs. */
    enum Loader { GRUB, SYSTEMD_BOOT }

    /**
     * A host's setup: CPU, boot loader, the kernel command line it was installed with, whether the firmware has
     * the IOMMU on, and configuration files it starts with (an earlier passthrough, say).
     */
    record Profile(String cpuVendor, String cpuModel, Loader loader, String cmdline, boolean firmwareIommu,
                   Map<String, String> files, Optional<String> passedThroughBefore) {
        Profile {
            files = Map.copyOf(files);
        }

        boolean intel() {
            return cpuVendor.equals("GenuineIntel");
        }
    }

    static final String KERNEL = "6.8.12-4-pve";
    private static final String MODULES = "# /etc/modules: kernel modules to load at boot time.\n";

    private final Path root;

    SimHostTree(Path root) {
        this.root = root;
    }

    /** The Demo lab's hosts, modelled on the nodes' PCI devices; other nodes get an AMD host with GRUB. */
    static Profile profile(SimCluster.Node node) {
        switch (node.name()) {
            case "pve-4090":
                // train-01 has the first RTX 4090: GPUForge passed it through some days ago
                return new Profile("AuthenticAMD", "AMD Ryzen 9 7950X 16-Core Processor", Loader.GRUB, "quiet",
                        node.iommu(), Map.of("/etc/modules", MODULES), Optional.of("0000:01:00.0"));
            case "pve-3090":
                return new Profile("GenuineIntel", "Intel(R) Core(TM) i9-10900K CPU @ 3.70GHz", Loader.SYSTEMD_BOOT,
                        "root=ZFS=rpool/ROOT/pve-1 boot=zfs intel_iommu=on", node.iommu(), Map.of("/etc/modules", MODULES),
                        Optional.empty());
            case "pve-store":
                return new Profile("GenuineIntel", "Intel(R) Xeon(R) E-2388G CPU @ 3.20GHz", Loader.GRUB, "quiet",
                        node.iommu(), Map.of(), Optional.empty());
            default:
                return new Profile("AuthenticAMD", "AMD EPYC 7443P 24-Core Processor", Loader.GRUB, "quiet",
                        node.iommu(), Map.of(), Optional.empty());
        }
    }

    Path root() {
        return root;
    }

    Path path(String absolute) {
        return root.resolve(absolute.startsWith("/") ? absolute.substring(1) : absolute);
    }

    void file(String absolute, String content) throws IOException {
        Path p = path(absolute);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    void dir(String absolute) throws IOException {
        Files.createDirectories(path(absolute));
    }

    void link(String absolute, String target) throws IOException {
        Path p = path(absolute);
        Files.createDirectories(p.getParent());
        Files.deleteIfExists(p);
        Files.createSymbolicLink(p, Path.of(target));
    }

    /** Everything but what boot decides. */
    void write(SimCluster.Node node, Profile p) throws IOException {
        file("/etc/hostname", node.name() + "\n");
        file("/etc/os-release", "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\n"
                + "VERSION_ID=\"12\"\nID=debian\n");
        file("/proc/sys/kernel/osrelease", KERNEL + "\n");
        file("/proc/sys/kernel/arch", "x86_64\n");
        StringBuilder cpu = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            cpu.append("processor\t: ").append(i).append("\nvendor_id\t: ").append(p.cpuVendor())
                    .append("\nmodel name\t: ").append(p.cpuModel()).append("\n\n");
        }
        file("/proc/cpuinfo", cpu.toString());
        file("/proc/meminfo", "MemTotal:       131891200 kB\nMemFree:        98123400 kB\n");
        file("/proc/mounts", "sysfs /sys sysfs rw 0 0\nproc /proc proc rw 0 0\n"
                + (p.loader() == Loader.SYSTEMD_BOOT ? "rpool/ROOT/pve-1 / zfs rw,relatime 0 0\n"
                : "/dev/mapper/pve-root / ext4 rw,relatime 0 0\n"));
        dir("/etc/pve");
        dir("/etc/initramfs-tools");
        dir("/etc/modprobe.d");
        file("/usr/sbin/update-initramfs", "#!/bin/sh\n# simulated by the GPUForge Demo lab: never run\n");
        dir("/sys/kernel");
        dir("/sys/firmware/efi/efivars");
        dir("/sys/firmware/acpi/tables");
        if (p.firmwareIommu()) {
            file("/sys/firmware/acpi/tables/" + (p.intel() ? "DMAR" : "IVRS"), p.intel() ? "DMAR" : "IVRS");
        }
        if (p.loader() == Loader.GRUB) {
            file("/etc/default/grub", "# If you change this file, run 'update-grub' afterwards to update\n"
                    + "# /boot/grub/grub.cfg.\n\nGRUB_DEFAULT=0\nGRUB_TIMEOUT=5\n"
                    + "GRUB_DISTRIBUTOR=\"Proxmox VE\"\nGRUB_CMDLINE_LINUX_DEFAULT=\"" + p.cmdline() + "\"\n"
                    + "GRUB_CMDLINE_LINUX=\"\"\n");
            dir("/boot/grub");
            file("/usr/sbin/update-grub", "#!/bin/sh\n# simulated by the GPUForge Demo lab: never run\n");
        } else {
            file("/etc/kernel/cmdline", p.cmdline() + "\n");
            file("/usr/sbin/proxmox-boot-tool", "#!/bin/sh\n# simulated by the GPUForge Demo lab: never run\n");
            file("/gpuforge/proxmox-boot-tool-status.txt", "Re-executing '/usr/sbin/proxmox-boot-tool' in new private"
                    + " mount namespace..\nSystem currently booted with uefi\n"
                    + "6A1E-27C2 is configured with: uefi (versions: " + KERNEL + ")\n"
                    + "6A1E-8F10 is configured with: uefi (versions: " + KERNEL + ")\n");
        }
        for (Map.Entry<String, String> f : p.files().entrySet()) {
            file(f.getKey(), f.getValue());
        }
        StringBuilder names = new StringBuilder();
        for (SimCluster.Pci d : node.pci()) {
            pci(d);
            names.append(hex(d.vendor())).append(':').append(hex(d.device())).append(' ').append(d.vendorName())
                    .append(' ').append(d.deviceName()).append('\n');
        }
        file("/gpuforge/names.txt", names.toString());
    }

    /** A PCI function's sysfs directory, as the kernel lays it out (its driver and group come with the boot). */
    private void pci(SimCluster.Pci d) throws IOException {
        String dev = "/sys/devices/pci0000:00/" + d.id();
        String cls = hex(d.classCode());
        file(dev + "/vendor", "0x" + hex(d.vendor()) + "\n");
        file(dev + "/device", "0x" + hex(d.device()) + "\n");
        file(dev + "/class", "0x" + cls + "\n");
        file(dev + "/subsystem_vendor", "0x" + (d.subsystemVendor().isEmpty() ? hex(d.vendor()) : hex(d.subsystemVendor()))
                + "\n");
        file(dev + "/subsystem_device", "0x" + (d.subsystemDevice().isEmpty() ? "0000" : hex(d.subsystemDevice())) + "\n");
        file(dev + "/power_state", "D0\n");
        file(dev + "/numa_node", "-1\n");
        file(dev + "/driver_override", "(null)\n");
        file(dev + "/d3cold_allowed", "1\n");
        file(dev + "/reset_method", cls.startsWith("03") ? "bus\n" : "flr bus\n");
        boolean gpu = cls.startsWith("03");
        if (gpu) {
            file(dev + "/boot_vga", "0\n");
        }
        // an RTX 4090 has a 32 GiB BAR with resizable BAR on: a warning to read before passthrough
        boolean bigBar = gpu && d.deviceName().contains("4090");
        long bar0 = gpu ? 16L << 20 : 0x4000;
        long bar1 = bigBar ? 32L << 30 : gpu ? 256L << 20 : 0;
        StringBuilder res = new StringBuilder();
        res.append(range(0xfb000000L, bar0)).append(range(bar1 == 0 ? 0 : 0x6000000000L, bar1));
        for (int i = 2; i < 13; i++) {
            res.append("0x0000000000000000 0x0000000000000000 0x0000000000000000\n");
        }
        file(dev + "/resource", res.toString());
        if (bigBar) {
            file(dev + "/resource1_resize", "0000000000007fc0\n");
        }
        link("/sys/bus/pci/devices/" + d.id(), "../../../devices/pci0000:00/" + d.id());
    }

    private static String range(long base, long size) {
        if (size == 0) {
            return "0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
        }
        return String.format(Locale.ROOT, "0x%016x 0x%016x 0x0000000000040200%n", base, base + size - 1);
    }

    /** {@code 0x10de} → {@code 10de}. */
    static String hex(String raw) {
        return raw.toLowerCase(Locale.ROOT).replaceFirst("^0x", "");
    }

    /** The driver a function has on a host that did nothing for passthrough. */
    static String hostDriver(SimCluster.Pci d) {
        String cls = hex(d.classCode());
        if (cls.startsWith("0300")) {
            return hex(d.vendor()).equals("10de") ? "nvidia" : hex(d.vendor()).equals("1002") ? "amdgpu" : null;
        }
        if (cls.startsWith("0403")) {
            return "snd_hda_intel";
        }
        if (cls.startsWith("0604")) {
            return "pcieport";
        }
        if (cls.startsWith("0c03")) {
            return "xhci_hcd";
        }
        if (cls.startsWith("0106")) {
            return "ahci";
        }
        return null;
    }
}
