package io.gpuforge.lab;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The lab machine's PCI topology, every address pinned (QEMU q35 with an emulated Intel IOMMU). Bus numbers
 * follow from the pinned slots: the firmware numbers the root ports' buses in slot order.
 *
 * <pre>
 * 00:01.0 cirrus-vga         boot console (absent in the boot-VGA case)
 * 00:02.0 virtio-net         management NIC (user networking, SSH forwarded to a loopback port)
 * 00:03.0 root port  → 01:00.0 VGA (1234:1111) + 01:00.1 ich9-intel-hda (8086:293e): the stand-in GPU
 * 00:04.0 root port  → 02:00.0 e1000e: an isolated NIC
 * 00:05.0 root port  → 03:00.0 pcie-pci-bridge → 04:01.0 e1000 + 04:02.0 virtio-net: a shared group
 * 00:06.0 virtio-blk         root disk
 * 00:1b.0 ich9-intel-hda     8086:293e again: the same ids as the GPU's audio function
 * 00:1f.* ICH9 LPC, SATA, SMBus (one group)
 * </pre>
 */
record Topology(boolean bootConsole, Path disk, int memoryMb) {

    static final String MGMT_MAC = "52:54:00:12:34:56";
    static final String BOOT_VGA = "0000:00:01.0";
    static final String MGMT_NIC = "0000:00:02.0";
    static final String GPU = "0000:01:00.0";
    static final String GPU_AUDIO = "0000:01:00.1";
    static final String ISOLATED_NIC = "0000:02:00.0";
    static final String BRIDGE = "0000:03:00.0";
    static final String SHARED_E1000 = "0000:04:01.0";
    static final String SHARED_VIRTIO = "0000:04:02.0";
    static final String DISK = "0000:00:06.0";
    static final String TWIN_AUDIO = "0000:00:1b.0";

    /** The machine with its root disk; {@code memoryMb}: 512 for the busybox guest, 1024 for a Debian one. */
    static Topology withDisk(Path image, int memoryMb) {
        return new Topology(true, image, memoryMb);
    }

    /** The same machine without the cirrus console: the stand-in GPU is the only VGA device, so the boot console. */
    Topology withoutBootConsole() {
        return new Topology(false, disk, memoryMb);
    }

    /** QEMU's machine and device arguments; {@code sshPort} is forwarded from 127.0.0.1 to the guest's port 22. */
    List<String> qemuArgs(int sshPort) {
        List<String> a = new ArrayList<>(List.of(
                "-machine", "q35,kernel-irqchip=split", "-accel", "tcg", "-cpu", "max,-la57", "-smp", "2",
                "-m", String.valueOf(memoryMb), "-nodefaults", "-display", "none", "-monitor", "none",
                "-no-reboot", "-audiodev", "none,id=snd0",
                "-device", "intel-iommu,intremap=on,caching-mode=on"));
        if (bootConsole) {
            a.addAll(List.of("-device", "cirrus-vga,addr=0x1,romfile="));
        }
        // every user network is restricted: nothing leaves QEMU except the forwarded SSH port
        a.addAll(List.of(
                "-netdev", "user,id=mgmt,restrict=on,hostfwd=tcp:127.0.0.1:" + sshPort + "-:22",
                "-device", "virtio-net-pci,netdev=mgmt,romfile=,mac=" + MGMT_MAC + ",addr=0x2",
                "-device", "pcie-root-port,id=rp1,chassis=1,slot=1,addr=0x3",
                "-device", "VGA,bus=rp1,addr=0x0.0,multifunction=on,romfile=",
                "-device", "ich9-intel-hda,id=gpuaudio,bus=rp1,addr=0x0.1",
                "-device", "pcie-root-port,id=rp2,chassis=2,slot=2,addr=0x4",
                "-netdev", "user,id=iso,restrict=on", "-device", "e1000e,bus=rp2,romfile=,netdev=iso",
                "-device", "pcie-root-port,id=rp3,chassis=3,slot=3,addr=0x5",
                "-device", "pcie-pci-bridge,id=br1,bus=rp3",
                "-netdev", "user,id=sh1,restrict=on", "-device", "e1000,bus=br1,addr=0x1,romfile=,netdev=sh1",
                "-netdev", "user,id=sh2,restrict=on", "-device", "virtio-net-pci,bus=br1,addr=0x2,romfile=,netdev=sh2",
                "-device", "ich9-intel-hda,id=twin,addr=0x1b"));
        a.addAll(List.of("-drive", "file=" + disk + ",if=none,id=root,format=raw,cache=unsafe",
                "-device", "virtio-blk-pci,drive=root,addr=0x6"));
        return a;
    }
}
