package io.gpuforge.host.listing;

import io.gpuforge.host.ProbeException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.pci.ListingReport;
import io.gpuforge.domain.pci.GpuPlacement;
import io.gpuforge.domain.pci.Isolation;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.testing.SharedFixtures;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Posts written from memory of real threads (r/VFIO, the Proxmox forum, Level1Techs): the other shapes the
 * listing takes, and what is pasted with it. Device names and ids are those of real parts.
 */
class ListingPostsTest {

    private static PciAddress a(String s) {
        return PciAddress.parse(s);
    }

    private static GpuPlacement gpu(ListingReport r, String address) {
        return r.inventory().gpus().stream().filter(g -> g.address().equals(a(address))).findFirst().orElseThrow();
    }

    @Test
    void redditPostIndentedAsACodeBlockWithLspciOfTheCardAfterIt() throws Exception {
        String post = "Hey everyone, I'm trying to pass my 3090 to a Windows VM on Proxmox 8 and the VM hangs at boot.\n"
                + "\n"
                + "IOMMU groups:\n"
                + "\n"
                + "    IOMMU Group 0:\n"
                + "        00:00.0 Host bridge [0600]: Advanced Micro Devices, Inc. [AMD] Starship/Matisse Root Complex [1022:1480]\n"
                + "    IOMMU Group 1:\n"
                + "        00:01.0 Host bridge [0600]: Advanced Micro Devices, Inc. [AMD] Starship/Matisse PCIe Dummy Host Bridge [1022:1482]\n"
                + "    ...\n"
                + "    IOMMU Group 27:\n"
                + "        2d:00.0 VGA compatible controller [0300]: NVIDIA Corporation GA102 [GeForce RTX 3090] [10de:2204] (rev a1)\n"
                + "        2d:00.1 Audio device [0403]: NVIDIA Corporation GA102 High Definition Audio Controller [10de:1aef] (rev a1)\n"
                + "    IOMMU Group 28:\n"
                + "        2e:00.0 Non-Essential Instrumentation [1300]: Advanced Micro Devices, Inc. [AMD] Starship/Matisse PCIe Dummy Function [1022:148a]\n"
                + "\n"
                + "`lspci -nnk -s 2d:00`:\n"
                + "\n"
                + "    2d:00.0 VGA compatible controller [0300]: NVIDIA Corporation GA102 [GeForce RTX 3090] [10de:2204] (rev a1)\n"
                + "        Subsystem: eVga.com. Corp. Device [3842:3987]\n"
                + "        Kernel driver in use: vfio-pci\n"
                + "        Kernel modules: nvidiafb, nouveau\n"
                + "    2d:00.1 Audio device [0403]: NVIDIA Corporation GA102 High Definition Audio Controller [10de:1aef] (rev a1)\n"
                + "        Subsystem: eVga.com. Corp. Device [3842:3987]\n"
                + "        Kernel driver in use: vfio-pci\n"
                + "        Kernel modules: snd_hda_intel\n"
                + "\n"
                + "Any help appreciated!\n";
        ListingReport r = ListingParser.read(post);
        assertThat(r.skipped()).extracting(ListingReport.Line::number).containsExactly(1, 3, 16, 27);
        assertThat(r.partial()).isTrue();
        assertThat(r.gaps()).singleElement().satisfies(g -> assertThat(g.line()).isEqualTo(9));
        assertThat(r.groupsNotFullyShown()).containsExactly(1);
        GpuPlacement rtx = gpu(r, "2d:00.0");
        assertThat(rtx.group()).isEqualTo(27);
        assertThat(rtx.isolation()).isEqualTo(Isolation.ISOLATED);
        assertThat(rtx.functions()).containsExactly(a("2d:00.0"), a("2d:00.1"));
        PciDevice d = r.inventory().device(a("2d:00.0")).orElseThrow();
        assertThat(d.driver()).contains("vfio-pci");
        assertThat(d.details().kernelModules()).containsExactly("nvidiafb", "nouveau");
        assertThat(r.inventory().group(28).orElseThrow().members()).containsExactly(a("2e:00.0"));
    }

    @Test
    void proxmoxForumPostInCodeTagsWithOneLinersCutShortAndWindowsLineEndings() throws Exception {
        String post = ("Hello,\n"
                + "\n"
                + "I followed the wiki but my GPU is in the same group as other devices:\n"
                + "\n"
                + "[CODE]root@pve:~# for d in /sys/kernel/iommu_groups/*/devices/*; do n=${d#*/iommu_groups/*}; n=${n%%/*};"
                + " printf 'IOMMU group %s ' \"$n\"; lspci -nns \"${d##*/}\"; done\n"
                + "IOMMU group 0 00:00.0 Host bridge [0600]: Intel Corporation Xeon E3-1200 v6/7th Gen Core Processor Host Bridge/DRAM Registers [8086:591f] (rev 05)\n"
                + "IOMMU group 1 00:01.0 PCI bridge [0604]: …\n"
                + "IOMMU group 1 01:00.0 VGA compatible controller [0300]: NVIDIA Corporation GP107 [GeForce GTX 1050 Ti] [10de:1c82] (rev a1)\n"
                + "IOMMU group 1 01:00.1 Audio device [0403]: NVIDIA Corporation GP107GL High Definition Audio Controller [10de:0fb9] (rev a1)\n"
                + "IOMMU group 1 02:00.0 Ethernet controller [0200]: Intel Corporation I210 Gigabit Network Connection [8086:1533] (rev 03)\n"
                + "...\n"
                + "IOMMU group 8 00:1f.6 Ethernet controller [0200]: Intel Corporation Ethernet Connection (2) I219-LM [8086:15b7]\n"
                + "[/CODE]\n"
                + "\n"
                + "pveversion: pve-manager/8.1.4/ec5affc9e41f1d79 (running kernel: 6.5.11-8-pve)\n").replace("\n", "\r\n");
        ListingReport r = ListingParser.read(post);
        assertThat(r.skipped()).extracting(ListingReport.Line::number).containsExactly(1, 3, 5, 15);
        assertThat(r.partial()).isTrue();
        assertThat(r.groupsNotFullyShown()).containsExactlyInAnyOrder(1, 8);
        GpuPlacement gtx = gpu(r, "01:00.0");
        assertThat(gtx.isolation()).isEqualTo(Isolation.SHARED);
        assertThat(gtx.sharedWith()).containsExactly(a("00:01.0"), a("02:00.0"));
        PciDevice bridge = r.inventory().device(a("00:01.0")).orElseThrow();
        assertThat(bridge.classCode()).isEqualTo("0604");
        assertThat(bridge.name()).as("the poster shortened it to …").isEmpty();
    }

    @Test
    void level1TechsScriptWithGroupColumnAndDrivers() throws Exception {
        String post = "Here's the output of the iommu script:\n\n"
                + "Group:  0   0000:00:00.0 Host bridge [0600]: Advanced Micro Devices, Inc. [AMD] Starship/Matisse Root Complex [1022:1480]\n"
                + "Group:  1   0000:00:01.0 Host bridge [0600]: Advanced Micro Devices, Inc. [AMD] Starship/Matisse PCIe Dummy Host Bridge [1022:1482]\n"
                + "Group:  2   0000:00:01.1 PCI bridge [0604]: Advanced Micro Devices, Inc. [AMD] Starship/Matisse GPP Bridge [1022:1483]   Driver: pcieport\n"
                + "Group:  27  0000:0b:00.0 VGA compatible controller [0300]: NVIDIA Corporation GA102 [GeForce RTX 3080] [10de:2206] (rev a1)   Driver: vfio-pci\n"
                + "Group:  27  0000:0b:00.1 Audio device [0403]: NVIDIA Corporation GA102 High Definition Audio Controller [10de:1aef] (rev a1)   Driver: vfio-pci\n"
                + "Group:  28  0000:0c:00.0 Non-Essential Instrumentation [1300]: Advanced Micro Devices, Inc. [AMD] Starship/Matisse PCIe Dummy Function [1022:148a]\n";
        ListingReport r = ListingParser.read(post);
        assertThat(r.skipped()).hasSize(1);
        assertThat(r.partial()).isFalse();
        assertThat(r.inventory().groups()).hasSize(5);
        PciDevice rtx = r.inventory().device(a("0b:00.0")).orElseThrow();
        assertThat(rtx.driver()).contains("vfio-pci");
        assertThat(rtx.deviceId()).isEqualTo("2206");
        assertThat(rtx.name()).contains("NVIDIA Corporation GA102 [GeForce RTX 3080]");
        assertThat(r.inventory().device(a("00:01.1")).orElseThrow().driver()).contains("pcieport");
        assertThat(gpu(r, "0b:00.0").isolation()).isEqualTo(Isolation.ISOLATED);
    }

    @Test
    void theScriptItselfPastedAboveItsOutput() throws Exception {
        String script = "#!/bin/bash\n"
                + "shopt -s nullglob\n"
                + "for g in $(find /sys/kernel/iommu_groups/* -maxdepth 0 -type d | sort -V); do\n"
                + "    echo \"IOMMU Group ${g##*/}:\"\n"
                + "    for d in $g/devices/*; do\n"
                + "        echo -e \"\\t$(lspci -nns ${d##*/})\"\n"
                + "    done;\n"
                + "done;\n"
                + "\n";
        String listing = ListingNoiseTest.fixture("01-intel-z790-rtx4070-rx590.txt");
        ListingReport r = ListingParser.read(script + listing);
        assertThat(r.skipped()).hasSize(8);
        assertThat(r.inventory()).isEqualTo(ListingParser.read(listing).inventory());
    }

    @Test
    void treeOfSysfsFollowedByLspciNn() throws Exception {
        String post = "root@host:~# tree /sys/kernel/iommu_groups/\n"
                + "/sys/kernel/iommu_groups/\n"
                + "├── 0\n"
                + "│   ├── devices\n"
                + "│   │   └── 0000:00:00.0 -> ../../../../devices/pci0000:00/0000:00:00.0\n"
                + "│   ├── reserved_regions\n"
                + "│   └── type\n"
                + "├── 1\n"
                + "│   ├── devices\n"
                + "│   │   ├── 0000:00:01.0 -> ../../../../devices/pci0000:00/0000:00:01.0\n"
                + "│   │   ├── 0000:01:00.0 -> ../../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0\n"
                + "│   │   └── 0000:01:00.1 -> ../../../../devices/pci0000:00/0000:00:01.0/0000:01:00.1\n"
                + "│   ├── reserved_regions\n"
                + "│   └── type\n"
                + "└── 2\n"
                + "    ├── devices\n"
                + "    │   └── 0000:00:14.0 -> ../../../../devices/pci0000:00/0000:00:14.0\n"
                + "    ├── reserved_regions\n"
                + "    └── type\n"
                + "\n"
                + "6 directories, 6 files\n"
                + "root@host:~# lspci -nn | grep -i -e vga -e audio -e bridge\n"
                + "00:01.0 PCI bridge [0604]: Intel Corporation 6th-10th Gen Core Processor PCIe Controller (x16) [8086:1901] (rev 07)\n"
                + "01:00.0 VGA compatible controller [0300]: NVIDIA Corporation TU104 [GeForce RTX 2070 SUPER] [10de:1e84] (rev a1)\n"
                + "01:00.1 Audio device [0403]: NVIDIA Corporation TU104 HD Audio Controller [10de:10f8] (rev a1)\n";
        ListingReport r = ListingParser.read(post);
        assertThat(r.skipped()).hasSize(13);
        assertThat(r.partial()).isFalse();
        assertThat(r.inventory().group(1).orElseThrow().members())
                .containsExactly(a("00:01.0"), a("01:00.0"), a("01:00.1"));
        GpuPlacement rtx = gpu(r, "01:00.0");
        assertThat(rtx.isolation()).isEqualTo(Isolation.SHARES_WITH_BRIDGES);
        assertThat(r.inventory().device(a("01:00.0")).orElseThrow().deviceId()).isEqualTo("1e84");
        assertThat(r.inventory().device(a("00:14.0")).orElseThrow().classCode()).as("not in the lspci excerpt").isNull();
    }

    @Test
    void dmesgGroupLinesWithLspciNn() throws Exception {
        String post = "$ dmesg | grep -i iommu\n"
                + "[    0.000000] Command line: BOOT_IMAGE=/vmlinuz-6.1.0-18-amd64 root=UUID=5e1c ro quiet amd_iommu=on iommu=pt\n"
                + "[    0.512345] pci 0000:00:00.2: AMD-Vi: IOMMU performance counters supported\n"
                + "[    0.514870] pci 0000:00:01.0: Adding to iommu group 0\n"
                + "[    0.514901] pci 0000:00:01.1: Adding to iommu group 1\n"
                + "[    0.515004] pci 0000:00:03.0: Adding to iommu group 2\n"
                + "[    0.515612] pci 0000:0a:00.0: Adding to iommu group 15\n"
                + "[    0.515630] pci 0000:0a:00.1: Adding to iommu group 15\n"
                + "[    0.516001] AMD-Vi: Found IOMMU cap 0x40\n"
                + "$ lspci -nn | grep -e VGA -e Audio\n"
                + "0a:00.0 VGA compatible controller [0300]: Advanced Micro Devices, Inc. [AMD/ATI] Navi 21 [Radeon RX 6800/6800 XT / 6900 XT] [1002:73bf] (rev c1)\n"
                + "0a:00.1 Audio device [0403]: Advanced Micro Devices, Inc. [AMD/ATI] Navi 21/23 HDMI/DP Audio Controller [1002:ab28]\n";
        ListingReport r = ListingParser.read(post);
        assertThat(r.skipped()).hasSize(5);
        assertThat(r.inventory().groups()).hasSize(4);
        GpuPlacement rx = gpu(r, "0a:00.0");
        assertThat(rx.group()).isEqualTo(15);
        assertThat(rx.isolation()).isEqualTo(Isolation.ISOLATED);
        assertThat(r.inventory().device(a("0a:00.0")).orElseThrow().deviceId()).isEqualTo("73bf");
    }

    @Test
    void lsOfTheGroupDirectories() throws Exception {
        String post = "$ ls -l /sys/kernel/iommu_groups/*/devices\n"
                + "/sys/kernel/iommu_groups/0/devices:\n"
                + "total 0\n"
                + "lrwxrwxrwx 1 root root 0 Mar  3 10:12 0000:00:00.0 -> ../../../../devices/pci0000:00/0000:00:00.0\n"
                + "\n"
                + "/sys/kernel/iommu_groups/1/devices:\n"
                + "total 0\n"
                + "lrwxrwxrwx 1 root root 0 Mar  3 10:12 0000:00:01.0 -> ../../../../devices/pci0000:00/0000:00:01.0\n"
                + "lrwxrwxrwx 1 root root 0 Mar  3 10:12 0000:01:00.0 -> ../../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0\n"
                + "lrwxrwxrwx 1 root root 0 Mar  3 10:12 0000:01:00.1 -> ../../../../devices/pci0000:00/0000:00:01.0/0000:01:00.1\n";
        ListingReport r = ListingParser.read(post);
        assertThat(r.skipped()).hasSize(3);
        assertThat(r.inventory().group(0).orElseThrow().members()).containsExactly(a("00:00.0"));
        assertThat(r.inventory().group(1).orElseThrow().members()).containsExactly(a("00:01.0"), a("01:00.0"), a("01:00.1"));
    }

    @Test
    void groupsWithTheirLspciNnkDetailsInline() throws Exception {
        // the loop variant that runs lspci -nnks per device: detail lines inside each group
        String post = "IOMMU Group 1:\n"
                + "\t00:01.0 PCI bridge [0604]: Intel Corporation 6th-10th Gen Core Processor PCIe Controller (x16) [8086:1901] (rev 07)\n"
                + "\t\tKernel driver in use: pcieport\n"
                + "\t01:00.0 VGA compatible controller [0300]: NVIDIA Corporation GP104 [GeForce GTX 1080] [10de:1b80] (rev a1)\n"
                + "\t\tSubsystem: Gigabyte Technology Co., Ltd GP104 [GeForce GTX 1080] [1458:3702]\n"
                + "\t\tKernel driver in use: vfio-pci\n"
                + "\t\tKernel modules: nouveau\n"
                + "\t01:00.1 Audio device [0403]: NVIDIA Corporation GP104 High Definition Audio Controller [10de:10f0] (rev a1)\n"
                + "\t\tKernel driver in use: vfio-pci\n"
                + "IOMMU Group 2:\n"
                + "\t00:14.0 USB controller [0c03]: Intel Corporation 200 Series/Z370 Chipset Family USB 3.0 xHCI Controller [8086:a2af]\n"
                + "\t\tKernel driver in use: xhci_hcd\n";
        ListingReport r = ListingParser.read(post);
        assertThat(r.skipped()).isEmpty();
        assertThat(r.inventory().groups()).hasSize(2);
        assertThat(r.inventory().device(a("01:00.0")).orElseThrow().driver()).contains("vfio-pci");
        assertThat(r.inventory().device(a("00:14.0")).orElseThrow().driver()).contains("xhci_hcd");
        assertThat(gpu(r, "01:00.0").isolation()).isEqualTo(Isolation.SHARES_WITH_BRIDGES);
    }

    @Test
    void proxmoxPveshHardwarePciTable() throws Exception {
        // the real table (cropped on the right and below), pasted with its command
        String table = new String(SharedFixtures.read("pve/01-b650m-rtx3080-raphael-pvesh-hardware-pci.cropped.txt"),
                StandardCharsets.UTF_8);
        ListingReport r = ListingParser.read("root@pve:~# pvesh get /nodes/pve/hardware/pci --pci-class-blacklist \"\"\n"
                + table);
        assertThat(r.skipped()).hasSize(1);
        assertThat(r.inventory().devices()).hasSize(9);
        GpuPlacement rtx = gpu(r, "01:00.0");
        assertThat(rtx.group()).isEqualTo(12);
        assertThat(rtx.functions()).containsExactly(a("01:00.0"), a("01:00.1"));
        assertThat(rtx.isolation()).isEqualTo(Isolation.ISOLATED);
        PciDevice d = r.inventory().device(a("01:00.0")).orElseThrow();
        assertThat(d.vendorId()).isEqualTo("10de");
        assertThat(d.deviceId()).isEqualTo("2206");
        assertThat(d.classCode()).isEqualTo("0300");
        assertThat(d.name()).contains("GA102 [GeForce RTX 3080]");
        assertThat(r.inventory().device(a("0f:00.0")).orElseThrow().name()).as("an empty device name").isEmpty();
        assertThat(gpu(r, "10:00.0").group()).isEqualTo(26);
    }

    @Test
    void markdownTableWithAGroupColumn() throws Exception {
        String post = "| Group | Address | Class | Device |\n"
                + "|---|---|---|---|\n"
                + "| 14 | 0000:0b:00.0 | VGA compatible controller | NVIDIA Corporation GA102 [GeForce RTX 3090] |\n"
                + "| 14 | 0000:0b:00.1 | Audio device | NVIDIA Corporation GA102 High Definition Audio Controller |\n"
                + "| 15 | 0000:0c:00.0 | USB controller | ASMedia Technology Inc. ASM2142 USB 3.1 Host Controller |\n";
        ListingReport r = ListingParser.read(post);
        assertThat(r.skipped()).isEmpty();
        GpuPlacement rtx = gpu(r, "0b:00.0");
        assertThat(rtx.group()).isEqualTo(14);
        assertThat(rtx.isolation()).isEqualTo(Isolation.ISOLATED);
        assertThat(r.inventory().device(a("0c:00.0")).orElseThrow().classCode()).isEqualTo("0c03");
    }

    @Test
    void onlyProseOrOnlyLspciIsStillRefusedSayingWhatToPaste() {
        assertThatThrownBy(() -> ListingParser.read("Hello, my GPU does not work\nplease help\n"))
                .isInstanceOf(ProbeException.class)
                .hasMessageContaining("No IOMMU group with a device was found in the listing")
                .hasMessageContaining("2 lines").hasMessageContaining("/sys/kernel/iommu_groups");
        assertThatThrownBy(() -> ListingParser.read(
                "01:00.0 VGA compatible controller [0300]: NVIDIA Corporation GA102 [10de:2204] (rev a1)\n"))
                .hasMessageContaining("No IOMMU group with a device was found in the listing");
        assertThatThrownBy(() -> ListingParser.read("\n\n  \n\t\n".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("No IOMMU group with a device was found in the listing");
    }
}
