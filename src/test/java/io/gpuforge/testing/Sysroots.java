package io.gpuforge.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builds small host trees (a sysroot: etc, proc, sys) for tests. */
public final class Sysroots {

    private Sysroots() {
    }

    /** A Proxmox-like Intel host with IOMMU on and {@code groups} IOMMU groups. */
    public static Path intelHost(Path dir, int groups) throws IOException {
        write(dir, "etc/hostname", "pve-lab1\n");
        write(dir, "etc/os-release", "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\n"
                + "VERSION_ID=\"12\"\nID=debian\n");
        write(dir, "proc/sys/kernel/osrelease", "6.8.12-4-pve\n");
        write(dir, "proc/sys/kernel/arch", "x86_64\n");
        StringBuilder cpu = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            cpu.append("processor\t: ").append(i).append("\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n")
                    .append("model name\t: 13th Gen Intel(R) Core(TM) i7-13700K\nflags\t\t: fpu vme vmx\n\n");
        }
        write(dir, "proc/cpuinfo", cpu.toString());
        write(dir, "proc/meminfo", "MemTotal:       65693184 kB\nMemFree:        1000000 kB\n");
        Files.createDirectories(dir.resolve("sys/kernel/iommu_groups"));
        for (int g = 0; g < groups; g++) {
            Files.createDirectories(dir.resolve("sys/kernel/iommu_groups/" + g + "/devices"));
        }
        return dir;
    }

    public static void write(Path root, String relative, String content) throws IOException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }
}
