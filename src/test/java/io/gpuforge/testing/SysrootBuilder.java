package io.gpuforge.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Writes a host tree the way the kernel lays it out (sysfs attributes, driver and IOMMU-group symlinks,
 * net and block class links), so the real probe script reads it exactly as on a host.
 */
public final class SysrootBuilder {

    private final Path root;

    public SysrootBuilder(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    public SysrootBuilder file(String path, String content) throws IOException {
        Path p = root.resolve(path.startsWith("/") ? path.substring(1) : path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
        return this;
    }

    public SysrootBuilder dir(String path) throws IOException {
        Files.createDirectories(root.resolve(path.startsWith("/") ? path.substring(1) : path));
        return this;
    }

    private void link(String path, String target) throws IOException {
        Path p = root.resolve(path.startsWith("/") ? path.substring(1) : path);
        Files.createDirectories(p.getParent());
        Files.deleteIfExists(p);
        Files.createSymbolicLink(p, Path.of(target));
    }

    /** The basics of a Linux host: hostname, os-release, kernel, CPU, memory, modules. */
    public SysrootBuilder linux(String hostname, String prettyName, String kernel, String cpuVendor, String cpuModel,
                                String cmdline) throws IOException {
        file("etc/hostname", hostname + "\n");
        file("etc/os-release", "PRETTY_NAME=\"" + prettyName + "\"\n");
        file("proc/sys/kernel/osrelease", kernel + "\n");
        file("proc/sys/kernel/arch", "x86_64\n");
        StringBuilder cpu = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            cpu.append("processor\t: ").append(i).append("\nvendor_id\t: ").append(cpuVendor)
                    .append("\nmodel name\t: ").append(cpuModel).append("\n\n");
        }
        file("proc/cpuinfo", cpu.toString());
        file("proc/meminfo", "MemTotal:       131072000 kB\n");
        file("proc/cmdline", cmdline + "\n");
        file("proc/modules", "vfio_pci 16384 0 - Live 0x0\nkvm_intel 380928 0 - Live 0x0\n");
        dir("sys/kernel");
        return this;
    }

    public SysrootBuilder acpi(boolean dmar, boolean ivrs) throws IOException {
        dir("sys/firmware/acpi/tables");
        if (dmar) {
            file("sys/firmware/acpi/tables/DMAR", "DMAR");
        }
        if (ivrs) {
            file("sys/firmware/acpi/tables/IVRS", "IVRS");
        }
        return this;
    }

    public SysrootBuilder uefi() throws IOException {
        return dir("sys/firmware/efi/efivars");
    }

    /**
     * A PCI function. {@code cls} is the 6-digit sysfs class (030000); {@code group} &lt; 0 means no IOMMU
     * group; {@code driver} null means unbound. The first BAR gets {@code bar0} bytes.
     */
    public SysrootBuilder pci(String addr, String vendor, String device, String cls, int group, String driver,
                              long bar0) throws IOException {
        String dev = "sys/devices/pci0000:00/" + addr;
        file(dev + "/vendor", "0x" + vendor + "\n");
        file(dev + "/device", "0x" + device + "\n");
        file(dev + "/class", "0x" + cls + "\n");
        file(dev + "/subsystem_vendor", "0x" + vendor + "\n");
        file(dev + "/subsystem_device", "0x0000\n");
        file(dev + "/power_state", "D0\n");
        file(dev + "/numa_node", "-1\n");
        file(dev + "/driver_override", "(null)\n");
        file(dev + "/reset_method", cls.startsWith("03") ? "bus\n" : "flr bus\n");
        file(dev + "/d3cold_allowed", "1\n");
        StringBuilder res = new StringBuilder();
        long base = 0xf0000000L;
        res.append(String.format(Locale.ROOT, "0x%016x 0x%016x 0x0000000000040200%n", base, base + bar0 - 1));
        for (int i = 1; i < 13; i++) {
            res.append("0x0000000000000000 0x0000000000000000 0x0000000000000000\n");
        }
        file(dev + "/resource", res.toString());
        link("sys/bus/pci/devices/" + addr, "../../../devices/pci0000:00/" + addr);
        if (driver != null) {
            dir("sys/bus/pci/drivers/" + driver);
            link(dev + "/driver", "../../../bus/pci/drivers/" + driver);
        }
        if (group >= 0) {
            dir("sys/kernel/iommu_groups/" + group + "/devices");
            link("sys/kernel/iommu_groups/" + group + "/devices/" + addr, "../../../../devices/pci0000:00/" + addr);
            link(dev + "/iommu_group", "../../../kernel/iommu_groups/" + group);
        }
        return this;
    }

    /** The first 64 bytes of config space, for tools (lspci) that read it instead of the attributes. */
    public SysrootBuilder config(String addr, String vendor, String device, String cls) throws IOException {
        byte[] c = new byte[64];
        int v = Integer.parseInt(vendor, 16);
        int d = Integer.parseInt(device, 16);
        int k = Integer.parseInt(cls, 16);
        c[0] = (byte) v;
        c[1] = (byte) (v >> 8);
        c[2] = (byte) d;
        c[3] = (byte) (d >> 8);
        c[9] = (byte) k;
        c[10] = (byte) (k >> 8);
        c[11] = (byte) (k >> 16);
        c[14] = (byte) (cls.startsWith("0604") ? 1 : 0);
        Path p = root.resolve("sys/devices/pci0000:00/" + addr + "/config");
        Files.createDirectories(p.getParent());
        Files.write(p, c);
        return this;
    }

    public SysrootBuilder attr(String addr, String name, String value) throws IOException {
        return file("sys/devices/pci0000:00/" + addr + "/" + name, value + "\n");
    }

    /** A network interface on a PCI function. */
    public SysrootBuilder nic(String iface, String addr) throws IOException {
        dir("sys/devices/pci0000:00/" + addr + "/net/" + iface);
        link("sys/class/net/" + iface, "../../devices/pci0000:00/" + addr + "/net/" + iface);
        link("sys/devices/pci0000:00/" + addr + "/net/" + iface + "/device", "../../../" + addr);
        return this;
    }

    /** A Linux bridge (vmbr0) over member interfaces. */
    public SysrootBuilder bridge(String bridge, String... members) throws IOException {
        dir("sys/devices/virtual/net/" + bridge + "/brif");
        link("sys/class/net/" + bridge, "../../devices/virtual/net/" + bridge);
        for (String m : members) {
            link("sys/devices/virtual/net/" + bridge + "/brif/" + m, "../../../../pci0000:00/x/net/" + m + "/brport");
        }
        return this;
    }

    public SysrootBuilder defaultRoute(String iface) throws IOException {
        return file("proc/net/route", "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
                + iface + "\t00000000\t0102A8C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
                + iface + "\t0002A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n");
    }

    /** A block device (disk or partition) under an NVMe or SATA controller. */
    public SysrootBuilder block(String name, String controllerAddr) throws IOException {
        String path = "sys/devices/pci0000:00/" + controllerAddr + "/nvme/nvme0/" + name;
        dir(path);
        link("sys/class/block/" + name, "../../devices/pci0000:00/" + controllerAddr + "/nvme/nvme0/" + name);
        return this;
    }

    public SysrootBuilder rootMount(String source, String fsType) throws IOException {
        return file("proc/mounts", "sysfs /sys sysfs rw 0 0\nproc /proc proc rw 0 0\n" + source + " / " + fsType
                + " rw,relatime 0 0\n");
    }
}
