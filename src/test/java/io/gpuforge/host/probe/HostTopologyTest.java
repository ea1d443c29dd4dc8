package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeStream;
import io.gpuforge.host.ProbeText;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.pci.PciAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The management NIC and the root disk's controller, traced through the probe's links. */
class HostTopologyTest {

    private static final String ROUTE = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
            + "vmbr0\t00000000\t0102A8C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
            + "vmbr0\t0002A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n";
    private static final String NVME = "../../devices/pci0000:00/0000:00:1d.0/0000:05:00.0/nvme/nvme0/";

    private final List<String> unknowns = new ArrayList<>();

    private HostTopology topology(ProbeText t) throws Exception {
        ProbeStream s = t.stream();
        return new HostTopology(s, SysfsLinks.read(s), unknowns::add);
    }

    private static PciAddress a(String s) {
        return PciAddress.parse(s);
    }

    @Test
    void theDefaultRouteThroughABridgeAndABondToItsNics() throws Exception {
        HostTopology t = topology(new ProbeText().file("/proc/net/route", ROUTE)
                .link("/sys/class/net/vmbr0/brif/bond0", "../../../../virtual/net/bond0/brport")
                .link("/sys/class/net/bond0/lower_eno1", "../../../pci0000:40/0000:40:01.1/0000:41:00.0/net/eno1")
                .link("/sys/class/net/bond0/lower_eno2", "../../../pci0000:40/0000:40:01.1/0000:41:00.1/net/eno2")
                .link("/sys/class/net/eno1/device", "../../../0000:41:00.0")
                .link("/sys/class/net/eno2/device", "../../../0000:41:00.1"));
        assertThat(t.managementDevices()).containsExactly(a("0000:41:00.0"), a("0000:41:00.1"));
        assertThat(unknowns).isEmpty();
    }

    @Test
    void aVirtioNicIsTracedThroughItsVirtioDeviceToThePciFunction() throws Exception {
        // a VM or a cloud host: /sys/class/net/eth0/device is the virtio device, whose parent is the PCI function
        HostTopology t = topology(new ProbeText().file("/proc/net/route", ROUTE.replace("vmbr0", "eth0"))
                .link("/sys/class/net/eth0/device", "../../../virtio0")
                .link("/sys/bus/virtio/devices/virtio0", "../../../devices/pci0000:00/0000:00:02.0/virtio0"));
        assertThat(t.managementDevices()).containsExactly(a("0000:00:02.0"));
        assertThat(unknowns).isEmpty();
    }

    @Test
    void aRootOnLvmIsTracedToItsDiskController() throws Exception {
        HostTopology t = topology(new ProbeText()
                .file("/proc/mounts", "sysfs /sys sysfs rw 0 0\n/dev/mapper/pve-root / ext4 rw,relatime 0 0\n")
                .dm("dm-1", "pve-root")
                .link("/sys/class/block/dm-1/slaves/nvme0n1p3", "../../nvme0n1p3")
                .link("/sys/class/block/nvme0n1p3", NVME + "nvme0n1/nvme0n1p3"));
        assertThat(t.rootDevices()).containsExactly(a("0000:05:00.0"));
    }

    @Test
    void aZfsRootIsTracedThroughItsPoolMembers() throws Exception {
        HostTopology t = topology(new ProbeText()
                .file("/proc/mounts", "rpool/ROOT/pve-1 / zfs rw,relatime,xattr,noacl 0 0\n")
                .cmd("zpool status -PL", "  pool: rpool\n state: ONLINE\nconfig:\n\n\tNAME STATE READ WRITE CKSUM\n"
                        + "\trpool ONLINE 0 0 0\n\t  mirror-0 ONLINE 0 0 0\n\t    /dev/nvme0n1p3 ONLINE 0 0 0\n"
                        + "\t    /dev/sda3 ONLINE 0 0 0\n\n  pool: tank\n\t    /dev/sdb1 ONLINE 0 0 0\n")
                .link("/sys/class/block/nvme0n1p3", NVME + "nvme0n1/nvme0n1p3")
                .link("/sys/class/block/sda3", "../../devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda/sda3")
                .link("/sys/class/block/sdb1", "../../devices/pci0000:00/0000:00:1c.0/0000:07:00.0/host5/block/sdb/sdb1"));
        assertThat(t.rootDevices()).as("tank is not the root pool").containsExactly(a("0000:05:00.0"), a("0000:00:17.0"));
    }

    @Test
    void whatCannotBeTracedIsSaid() throws Exception {
        HostTopology t = topology(new ProbeText().file("/proc/mounts", "/dev/vda1 / ext4 rw 0 0\n"));
        assertThat(t.managementDevices()).isEmpty();
        assertThat(t.rootDevices()).isEmpty();
        assertThat(unknowns).containsExactly("management interface: /proc/net/route not readable",
                "root file system: the controller of /dev/vda1 could not be traced");
    }
}
