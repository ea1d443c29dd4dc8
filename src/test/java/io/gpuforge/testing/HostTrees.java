package io.gpuforge.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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

    /**
     * Proxmox VE 8.2 whose GPUs stay with the host for containers to share: an RTX 3060 on the NVIDIA driver 550.54.14
     * (its /dev/nvidia0 and /dev/nvidiactl, not yet /dev/nvidia-uvm, as after a boot with no CUDA use) and an Intel
     * UHD 770 on i915 with card0/renderD128; /etc/group with video 44 and render 104. Device nodes are plain files.
     */
    public static Path proxmoxSharedGpus(Path dir) throws IOException {
        SysrootBuilder b = new SysrootBuilder(dir)
                .linux("pve-share", "Debian GNU/Linux 12 (bookworm)", "6.8.12-4-pve", "GenuineIntel",
                        "12th Gen Intel(R) Core(TM) i7-12700K", "BOOT_IMAGE=/boot/vmlinuz-6.8.12-4-pve root=/dev/mapper/pve-root ro quiet")
                .acpi(true, false).uefi()
                .dir("etc/pve").file("usr/share/misc/pci.ids", PCI_IDS)
                .file("usr/share/perl5/PVE/pvecfg.pm", "package PVE::pvecfg;\n\nuse strict;\nuse warnings;\n\n"
                        + "sub package {\n    return 'pve-manager';\n}\n\nsub version {\n    return '8.2.4';\n}\n\n"
                        + "sub release {\n    return '8.2';\n}\n\n1;\n")
                .file("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb"
                        + " 22 01:44:30 UTC 2024\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n")
                .file("proc/driver/nvidia/gpus/0000:07:00.0/information", "Model: \t\t NVIDIA GeForce RTX 3060\n"
                        + "IRQ:   \t\t 186\nGPU UUID: \t GPU-6b2f9c1e-4d7a-9b1e-2c3d-5e6f7a8b9c0d\n"
                        + "Video BIOS: \t 94.06.2f.00.9a\nBus Type: \t PCIe\nDMA Size: \t 47 bits\n"
                        + "DMA Mask: \t 0x7fffffffffff\nBus Location: \t 0000:07:00.0\nDevice Minor: \t 0\n"
                        + "GPU Excluded:\t No\n")
                .file("etc/group", "root:x:0:\nadm:x:4:admin\nvideo:x:44:\nplugdev:x:46:admin\nrender:x:104:\n"
                        + "admin:x:1000:\n")
                .file("usr/bin/nvidia-modprobe", "#!/bin/sh\n").file("usr/bin/nvidia-smi", "#!/bin/sh\n")
                .file("dev/nvidia0", "").file("dev/nvidiactl", "")
                .file("dev/dri/card0", "").file("dev/dri/renderD128", "")
                .pci("0000:00:00.0", "8086", "4668", "060000", 0, null, 0x1000)
                .pci("0000:00:02.0", "8086", "4680", "030000", 1, "i915", 16L << 20)
                .pci("0000:07:00.0", "10de", "2504", "030000", 14, "nvidia", 16L << 20)
                .pci("0000:07:00.1", "10de", "228e", "040300", 14, "snd_hda_intel", 0x4000)
                .pci("0000:05:00.0", "8086", "15f3", "020000", 12, "igc", 0x10000)
                .file("sys/devices/pci0000:00/0000:00:02.0/drm/card0/dev", "226:0\n")
                .file("sys/devices/pci0000:00/0000:00:02.0/drm/renderD128/dev", "226:128\n");
        b.file("proc/modules", "nvidia 56823808 0 - Live 0x0\ni915 4218880 0 - Live 0x0\nkvm_intel 380928 0 - Live 0x0\n");
        b.nic("enp5s0", "0000:05:00.0").bridge("vmbr0", "enp5s0").defaultRoute("vmbr0").rootMount("/dev/mapper/pve-root", "ext4");
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

    /** Where a test tree keeps the switches of its boot tools (left out when trees are compared). */
    public static final String SWITCHES = ".test";

    private static final String SELF = "#!/bin/sh\n# A stand-in for %s on a test tree: it rebuilds the tree's boot files from its configuration,\n"
            + "# as the real tool does. Switches in $R/" + SWITCHES + ": fail-TOOL (once: removed when used; always), hang-TOOL,\n"
            + "# await-TOOL (waits for $R/" + SWITCHES + "/seen after its first line).\n"
            + "R=\"$(cd -P \"$(dirname \"$0\")/../..\" && pwd -P)\"\nS=\"$R/" + SWITCHES + "\"\nme=\"${0##*/}\"\nexport LC_ALL=C\n"
            + "echo \"%s\"\n"
            + "if [ -f \"$S/await-$me\" ]; then n=0; while [ ! -e \"$S/seen\" ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done;"
            + " [ -e \"$S/seen\" ] || { echo \"$me: nobody saw my first line\" >&2; exit 7; }; fi\n"
            + "if [ -f \"$S/hang-$me\" ]; then exec sleep 600; fi\n"
            + "if [ -f \"$S/fail-$me\" ]; then grep -qx once \"$S/fail-$me\" && rm -f \"$S/fail-$me\";"
            + " echo \"$me: error: failing as the test asked\" >&2; exit 1; fi\n";

    private static final String GRUB = SELF + "out=\"$R/boot/grub/grub.cfg\"\n"
            + "if [ \"$1\" = -o ]; then out=\"$R$2\"; fi\nmkdir -p \"${out%%/*}\"\n"
            + "{ echo '# generated from /etc/default/grub'; cat \"$R/etc/default/grub\"; } > \"$out.new\"\n"
            + "mv \"$out.new\" \"$out\"\necho done\n";

    private static final String INITRAMFS = SELF + "case \"$me\" in\n"
            + "  update-initramfs) out=\"$R/boot/initrd.img-$(cat \"$R/proc/sys/kernel/osrelease\")\" ;;\n"
            + "  dracut) out=\"$R/boot/initramfs-$(cat \"$R/proc/sys/kernel/osrelease\").img\" ;;\n"
            + "  *) out=\"$R/boot/initramfs-linux.img\" ;;\nesac\nmkdir -p \"$R/boot\"\n"
            + "for f in \"$R\"/etc/modules \"$R\"/etc/initramfs-tools/modules \"$R\"/etc/mkinitcpio.conf \"$R\"/etc/modprobe.d/*.conf"
            + " \"$R\"/etc/dracut.conf.d/*.conf \"$R\"/etc/udev/rules.d/*.rules; do\n"
            + "  [ -f \"$f\" ] && { echo \"== ${f#\"$R\"}\"; cat \"$f\"; }\ndone > \"$out.new\"\n"
            + "mv \"$out.new\" \"$out\"\necho \"I: wrote ${out#\"$R\"}\"\n";

    private static final String PROXMOX = SELF + "[ \"$1\" = refresh ] || { echo \"usage: $me refresh\" >&2; exit 2; }\n"
            + "mkdir -p \"$R/boot/efi/loader/entries\"\n"
            + "k=\"$(cat \"$R/proc/sys/kernel/osrelease\")\"\n"
            + "printf 'title Proxmox VE\\nlinux /EFI/proxmox/%%s/vmlinuz\\noptions %%s\\n' \"$k\" \"$(cat \"$R/etc/kernel/cmdline\")\""
            + " > \"$R/boot/efi/loader/entries/proxmox-$k.conf\"\n"
            + "echo \"Copying and configuring kernels on /dev/disk/by-uuid/4A2B-9C1D\"\n";

    /**
     * Makes the tree's boot tools work (update-grub or grub-mkconfig, update-initramfs, dracut or mkinitcpio,
     * proxmox-boot-tool, the ones the tree's host has): each rebuilds the tree's boot files (grub.cfg, the
     * initramfs, the systemd-boot entry) from its configuration, so a test sees whether the boot loader carries
     * what the configuration says. Runs each once, so the tree starts consistent. For tree hosts only
     * ({@link SysrootSshServer.TreeHost}), which run a host's commands.
     */
    public static Path withBootTools(Path root) throws IOException {
        List<List<String>> installed = new ArrayList<>();
        boolean grubMkconfig = Files.exists(root.resolve("usr/sbin/grub-mkconfig")) || Files.exists(root.resolve("usr/sbin/grub2-mkconfig"));
        if (Files.exists(root.resolve("etc/default/grub")) && !grubMkconfig) {
            installed.add(tool(root, "usr/sbin/update-grub", GRUB, "Generating grub configuration file ..."));
        }
        for (String g : new String[] {"grub-mkconfig", "grub2-mkconfig"}) {
            if (Files.exists(root.resolve("usr/sbin/" + g))) {
                List<String> cmd = tool(root, "usr/sbin/" + g, GRUB, "Generating grub configuration file ...");
                cmd.addAll(List.of("-o", g.equals("grub2-mkconfig") ? "/boot/grub2/grub.cfg" : "/boot/grub/grub.cfg"));
                installed.add(cmd);
            }
        }
        if (Files.exists(root.resolve("usr/sbin/update-initramfs")) || Files.isDirectory(root.resolve("etc/initramfs-tools"))) {
            installed.add(tool(root, "usr/sbin/update-initramfs", INITRAMFS, "update-initramfs: Generating the initramfs"));
        }
        for (String t : new String[] {"usr/bin/dracut", "usr/bin/mkinitcpio"}) {
            if (Files.exists(root.resolve(t))) {
                installed.add(tool(root, t, INITRAMFS, "==> Building the initramfs"));
            }
        }
        if (Files.exists(root.resolve("usr/sbin/proxmox-boot-tool"))) {
            List<String> cmd = tool(root, "usr/sbin/proxmox-boot-tool", PROXMOX, "Running hook script 'proxmox-auto-removal'..");
            cmd.add("refresh");
            installed.add(cmd);
        }
        for (List<String> cmd : installed) {
            Process p = startJustWritten(cmd);
            try {
                if (p.waitFor() != 0) {
                    throw new IOException(cmd + " failed on " + root);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        return root;
    }

    /**
     * Starts a tool whose file was just written. Another thread that forks meanwhile holds the file open for writing
     * until its child execs, and Linux then refuses to run it ("Text file busy"): that passes, so try again.
     */
    private static Process startJustWritten(List<String> cmd) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
            } catch (IOException e) {
                if (attempt == 50 || !String.valueOf(e.getMessage()).contains("error=26")) {
                    throw e;
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException i) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", i);
                }
            }
        }
    }

    private static List<String> tool(Path root, String path, String body, String firstLine) throws IOException {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, String.format(Locale.ROOT, body, p.getFileName(), firstLine));
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return new ArrayList<>(List.of(p.toString()));
    }

    /** Sets a switch of a boot tool (see {@link #withBootTools}): "fail" once or always, "hang", "await". */
    public static void toolSwitch(Path root, String kind, String tool, String value) throws IOException {
        Path p = root.resolve(SWITCHES).resolve(kind + "-" + tool);
        Files.createDirectories(p.getParent());
        Files.writeString(p, value + "\n");
    }

    /** Removes every switch of the tree's boot tools. */
    public static void clearSwitches(Path root) throws IOException {
        Path d = root.resolve(SWITCHES);
        if (Files.isDirectory(d)) {
            try (var s = Files.list(d)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    Files.delete(p);
                }
            }
        }
    }

    /** A fixture file from shared/fixtures when present, else the given excerpt of it. */
    static String fixture(String relative, String excerpt) throws IOException {
        Path p = Path.of(System.getProperty("gpuforge.shared", "../shared"), "fixtures", relative);
        return Files.isReadable(p) ? Files.readString(p) : excerpt;
    }
}
