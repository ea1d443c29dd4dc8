package io.gpuforge.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The six host trees the probe is tested on, modelled on real machines (devices and ids from the
 * listings in shared/fixtures/hosts, kernel messages from shared/fixtures/config).
 */
public final class HostTrees {

    private HostTrees() {
    }

    static final String PCI_IDS = "# excerpt of pci.ids\n"
            + "10de  NVIDIA Corporation\n\t2204  GA102 [GeForce RTX 3090]\n\t1aef  GA102 High Definition Audio Controller\n"
            + "\t2786  AD104 [GeForce RTX 4070]\n\t22bc  AD104 High Definition Audio Controller\n"
            + "1002  Advanced Micro Devices, Inc. [AMD/ATI]\n\t67df  Ellesmere [Radeon RX 470/480/570/570X/580/580X/590]\n"
            + "1022  Advanced Micro Devices, Inc. [AMD]\n\t1480  Starship/Matisse Root Complex\n"
            + "144d  Samsung Electronics Co Ltd\n\ta80a  NVMe SSD Controller PM9A1/PM9A3/980PRO\n"
            + "14e4  Broadcom Inc. and subsidiaries\n\t165f  NetXtreme BCM5720 Gigabit Ethernet PCIe\n"
            + "8086  Intel Corporation\n\ta70d  Raptor Lake PCI Express 5.0 Graphics Port (PEG010)\n"
            + "C 00  Unclassified device\n";

    /** MSI Z790, Ubuntu with GRUB: RTX 4070 (group 11) + RX 590 (group 13), NVMe root, one NIC. */
    public static Path intelGrub(Path dir) throws IOException {
        SysrootBuilder b = new SysrootBuilder(dir)
                .linux("z790", "Ubuntu 22.04.2 LTS", "5.19.0-41-generic", "GenuineIntel",
                        "13th Gen Intel(R) Core(TM) i9-13900K",
                        "BOOT_IMAGE=/boot/vmlinuz-5.19.0-41-generic root=UUID=3ba2 ro quiet splash intel_iommu=on")
                .acpi(true, false).uefi()
                .file("etc/default/grub", "GRUB_DEFAULT=0\nGRUB_TIMEOUT=5\n"
                        + "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash intel_iommu=on\"\nGRUB_CMDLINE_LINUX=\"\"\n")
                .dir("boot/grub").dir("usr/sbin").file("usr/sbin/update-initramfs", "#!/bin/sh\n")
                .file("usr/share/misc/pci.ids", PCI_IDS)
                .file("gpuforge/dmesg.txt", fixture("config/01-ubuntu2204-z690-dmesg-dmar.txt",
                        "[    0.068878] DMAR: IOMMU enabled\n[    0.152935] DMAR-IR: Enabled IRQ remapping in x2apic mode\n"))
                .pci("0000:00:00.0", "8086", "a740", "060000", 0, null, 0x1000)
                .pci("0000:00:01.0", "8086", "a70d", "060400", 1, "pcieport", 0x1000)
                .pci("0000:01:00.0", "10de", "2786", "030000", 11, "nvidia", 16L << 20)
                .pci("0000:01:00.1", "10de", "22bc", "040300", 11, "snd_hda_intel", 0x4000)
                .pci("0000:04:00.0", "1002", "67df", "030000", 13, "amdgpu", 256L << 20)
                .pci("0000:04:00.1", "1002", "aaf0", "040300", 13, "snd_hda_intel", 0x4000)
                .pci("0000:05:00.0", "144d", "a80c", "010802", 14, "nvme", 0x4000)
                .pci("0000:06:00.0", "8086", "125c", "020000", 15, "igc", 0x100000)
                .nic("enp6s0", "0000:06:00.0").defaultRoute("enp6s0")
                .block("nvme0n1", "0000:05:00.0").block("nvme0n1p2", "0000:05:00.0")
                .rootMount("/dev/nvme0n1p2", "ext4");
        b.file("etc/modprobe.d/blacklist.conf", "blacklist nouveau\n");
        return b.root();
    }

    /** Proxmox VE 8 on ZFS with systemd-boot: 4× RTX 3090, vmbr0 on eno1, vfio.conf as in a real PVE post. */
    public static Path proxmoxSystemdBoot(Path dir) throws IOException {
        SysrootBuilder b = new SysrootBuilder(dir)
                .linux("pve-gpu1", "Debian GNU/Linux 12 (bookworm)", "6.8.12-4-pve", "AuthenticAMD",
                        "AMD EPYC 7443P 24-Core Processor",
                        "initrd=\\EFI\\proxmox\\6.8.12-4-pve\\initrd.img-6.8.12-4-pve root=ZFS=rpool/ROOT/pve-1 boot=zfs")
                .acpi(false, true).uefi()
                .dir("etc/pve").dir("etc/initramfs-tools").file("usr/share/misc/pci.ids", PCI_IDS).file("usr/sbin/proxmox-boot-tool", "#!/bin/sh\n")
                .file("etc/kernel/cmdline", "root=ZFS=rpool/ROOT/pve-1 boot=zfs\n")
                .file("gpuforge/proxmox-boot-tool-status.txt", "Re-executing '/usr/sbin/proxmox-boot-tool' in new private mount namespace..\n"
                        + "System currently booted with uefi\n"
                        + "4A2B-9C1D is configured with: uefi (versions: 6.8.12-4-pve)\n"
                        + "4A2C-1E7F is configured with: uefi (versions: 6.8.12-4-pve)\n")
                .file("gpuforge/zpool-status.txt", "  pool: rpool\n state: ONLINE\nconfig:\n\n"
                        + "\tNAME                STATE     READ WRITE CKSUM\n\trpool               ONLINE       0     0     0\n"
                        + "\t  mirror-0          ONLINE       0     0     0\n"
                        + "\t    /dev/nvme0n1p3  ONLINE       0     0     0\n\t    /dev/nvme1n1p3  ONLINE       0     0     0\n")
                .file("gpuforge/dmesg.txt", "[    0.000000] AMD-Vi: Using global IVHD EFR:0x58f77ef22294ade\n"
                        + "[    1.217842] AMD-Vi: Interrupt remapping enabled\n")
                .file("etc/modprobe.d/vfio.conf", fixture("config/08-x99-pve-modprobe-vfio.conf",
                        "options vfio-pci ids=10de:0fc6,10de:0e1b\nsoftdep nvidia pre: vfio-pci\n"))
                .file("etc/modprobe.d/blacklist.conf", fixture("config/08-x99-pve-modprobe-blacklist.conf",
                        "blacklist nouveau\nblacklist nvidia*\n"))
                .file("etc/modules", "# /etc/modules\nvfio\nvfio_iommu_type1\nvfio_pci\nvfio_virqfd\n")
                .pci("0000:00:00.0", "1022", "1480", "060000", 0, null, 0x1000)
                .pci("0000:01:00.0", "144d", "a80a", "010802", 20, "nvme", 0x4000)
                .pci("0000:02:00.0", "144d", "a80a", "010802", 21, "nvme", 0x4000)
                .pci("0000:41:00.0", "14e4", "165f", "020000", 30, "tg3", 0x10000);
        String[] gpus = {"0000:81:00", "0000:82:00", "0000:c1:00", "0000:c2:00"};
        for (int i = 0; i < gpus.length; i++) {
            b.pci(gpus[i] + ".0", "10de", "2204", "030000", 40 + i, "vfio-pci", 16L << 20)
                    .pci(gpus[i] + ".1", "10de", "1aef", "040300", 40 + i, "vfio-pci", 0x4000);
        }
        b.nic("eno1", "0000:41:00.0").bridge("vmbr0", "eno1").defaultRoute("vmbr0")
                .block("nvme0n1p3", "0000:01:00.0").block("nvme1n1p3", "0000:02:00.0")
                .rootMount("rpool/ROOT/pve-1", "zfs");
        return b.root();
    }

    /** AMD X570 with SVM/IOMMU off in the firmware setup: no IVRS table, no groups. */
    public static Path amdFirmwareOff(Path dir) throws IOException {
        return new SysrootBuilder(dir)
                .linux("x570", "Arch Linux", "6.12.1-arch1-1", "AuthenticAMD", "AMD Ryzen 9 3900X 12-Core Processor",
                        "BOOT_IMAGE=/vmlinuz-linux root=UUID=1 rw amd_iommu=on iommu=pt")
                .acpi(false, false).uefi().dir("sys/kernel/iommu_groups")
                .file("etc/mkinitcpio.conf", "MODULES=()\n").file("usr/bin/mkinitcpio", "#!/bin/sh\n")
                .file("etc/default/grub", "GRUB_CMDLINE_LINUX_DEFAULT=\"loglevel=3 amd_iommu=on iommu=pt\"\n")
                .pci("0000:00:01.0", "1022", "1482", "060000", -1, null, 0x1000)
                .pci("0000:09:00.0", "10de", "1b81", "030000", -1, "nvidia", 16L << 20)
                .pci("0000:09:00.1", "10de", "10f0", "040300", -1, "snd_hda_intel", 0x4000)
                .root();
    }

    /** Arch Linux with mkinitcpio and GRUB, AMD, IOMMU on: GTX 1070 alone in group 24. */
    public static Path archMkinitcpio(Path dir) throws IOException {
        return new SysrootBuilder(dir)
                .linux("arch", "Arch Linux", "6.12.1-arch1-1", "AuthenticAMD", "AMD Ryzen 9 3900X 12-Core Processor",
                        "BOOT_IMAGE=/vmlinuz-linux root=UUID=1 rw loglevel=3")
                .acpi(false, true).uefi()
                .file("etc/mkinitcpio.conf", "# vim:set ft=sh\nMODULES=(btrfs)\nBINARIES=()\nHOOKS=(base udev autodetect)\n")
                .file("usr/bin/mkinitcpio", "#!/bin/sh\n").file("usr/sbin/grub-mkconfig", "#!/bin/sh\n")
                .file("etc/default/grub", "GRUB_CMDLINE_LINUX_DEFAULT=\"loglevel=3 quiet\"\n")
                .pci("0000:00:01.0", "1022", "1482", "060000", 0, null, 0x1000)
                .pci("0000:09:00.0", "10de", "1b81", "030000", 24, "nouveau", 256L << 20)
                .pci("0000:09:00.1", "10de", "10f0", "040300", 24, "snd_hda_intel", 0x4000)
                .root();
    }

    /** IOMMU on, interrupt remapping turned off by the kernel (a chipset erratum), dracut. */
    public static Path noInterruptRemapping(Path dir) throws IOException {
        return new SysrootBuilder(dir)
                .linux("x99", "Fedora Linux 40 (Server Edition)", "6.9.5-200.fc40.x86_64", "GenuineIntel",
                        "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", "BOOT_IMAGE=(hd0,gpt2)/vmlinuz root=/dev/sda2 intel_iommu=on")
                .acpi(true, false)
                .file("usr/bin/dracut", "#!/bin/sh\n")
                .file("etc/default/grub", "GRUB_CMDLINE_LINUX=\"rhgb quiet intel_iommu=on\"\n")
                .file("gpuforge/dmesg.txt", "[    0.120000] DMAR: IOMMU enabled\n"
                        + "[    0.300000] DMAR-IR: This system BIOS has enabled interrupt remapping\n"
                        + "[    0.300001] on a chipset that contains an erratum making that\n"
                        + "[    0.300002] feature unstable. To maintain system stability\n"
                        + "[    0.300003] interrupt remapping is being disabled. Please\n")
                .pci("0000:00:00.0", "8086", "6f00", "060000", 0, null, 0x1000)
                .pci("0000:03:00.0", "10de", "0fc6", "030000", 30, "nouveau", 128L << 20)
                .pci("0000:03:00.1", "10de", "0e1b", "040300", 30, "snd_hda_intel", 0x4000)
                .root();
    }

    /** One GPU that is also the boot console (boot_vga=1), Intel, GRUB. */
    public static Path bootVga(Path dir) throws IOException {
        SysrootBuilder b = new SysrootBuilder(dir)
                .linux("single", "Debian GNU/Linux 12 (bookworm)", "6.1.0-26-amd64", "GenuineIntel",
                        "Intel(R) Core(TM) i7-8700K CPU @ 3.70GHz", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 intel_iommu=on iommu=pt")
                .acpi(true, false)
                .file("etc/default/grub", "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet intel_iommu=on iommu=pt\"\n")
                .pci("0000:00:01.0", "8086", "1901", "060400", 2, "pcieport", 0x1000)
                .pci("0000:01:00.0", "10de", "1d01", "030000", 2, "nvidia", 16L << 20)
                .pci("0000:01:00.1", "10de", "0fb8", "040300", 2, "snd_hda_intel", 0x4000);
        b.attr("0000:01:00.0", "boot_vga", "1");
        b.attr("0000:01:00.0", "resource0_resize", "0000000000003f00");
        return b.root();
    }

    /** Two identical RTX 3090s: one stays with the host (nvidia), one goes to a VM. */
    public static Path twoIdenticalGpus(Path dir) throws IOException {
        return new SysrootBuilder(dir)
                .linux("twin", "Debian GNU/Linux 12 (bookworm)", "6.1.0-26-amd64", "AuthenticAMD",
                        "AMD Ryzen 9 7950X 16-Core Processor", "BOOT_IMAGE=/vmlinuz root=/dev/nvme0n1p2 iommu=pt")
                .acpi(false, true)
                .pci("0000:01:00.0", "10de", "2204", "030000", 14, "nvidia", 16L << 20)
                .pci("0000:01:00.1", "10de", "1aef", "040300", 14, "snd_hda_intel", 0x4000)
                .pci("0000:0b:00.0", "10de", "2204", "030000", 27, "vfio-pci", 16L << 20)
                .pci("0000:0b:00.1", "10de", "1aef", "040300", 27, "vfio-pci", 0x4000)
                .root();
    }

    /** A fixture file from shared/fixtures when present, else the given excerpt of it. */
    static String fixture(String relative, String excerpt) throws IOException {
        Path p = Path.of(System.getProperty("gpuforge.shared", "../shared"), "fixtures", relative);
        return Files.isReadable(p) ? Files.readString(p) : excerpt;
    }
}
