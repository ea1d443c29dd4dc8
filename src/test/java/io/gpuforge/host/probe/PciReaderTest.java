package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeStream;
import io.gpuforge.host.ProbeText;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.pci.IommuGroup;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.pci.PciInventory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PCI functions and IOMMU groups from the probe's device sections, links and name lookups. */
class PciReaderTest {

    private final List<String> unknowns = new ArrayList<>();

    private PciInventory read(ProbeText t) throws Exception {
        ProbeStream s = t.stream();
        return new PciReader(s, SysfsLinks.read(s), unknowns::add).inventory();
    }

    private static PciAddress a(String s) {
        return PciAddress.parse(s);
    }

    @Test
    void attributesLinksAndGroups() throws Exception {
        PciInventory pci = read(new ProbeText().root("/tmp/sysroot")
                .device("0000:01:00.0", "vendor=0x10DE", "device=0x2786", "class=0x030000", "subsystem_vendor=0x1462",
                        "subsystem_device=0x5130", "boot_vga=0", "reset_method=flr bus", "power_state=D0",
                        "numa_node=-1", "current_link_speed=16.0 GT/s PCIe", "current_link_width=16",
                        "d3cold_allowed=1", "driver_override=(null)",
                        "resource=0x00000000f6000000 0x00000000f6ffffff 0x0000000000040200",
                        "resource=0x000000e000000000 0x000000efffffffff 0x000000000014220c",
                        "resource=0x0000000000000000 0x0000000000000000 0x0000000000000000",
                        "resource=0x0000000000000000 0x0000000000000000 0x0000000000000000",
                        "resource=0x0000000000000000 0x0000000000000000 0x0000000000000000",
                        "resource=0x0000000000000000 0x0000000000000000 0x0000000000000000",
                        "resource=0x00000000f7000000 0x00000000f707ffff 0x0000000000046200", "rebar=1")
                .device("0000:01:00.1", "vendor=0x10de", "device=0x22bc", "class=0x040300", "driver_override=vfio-pci")
                .group(11, "0000:01:00.0")
                .link("/sys/bus/pci/devices/0000:01:00.0/driver", "../../../bus/pci/drivers/nvidia")
                .link("/sys/bus/pci/devices/0000:01:00.1/driver", "../../../bus/pci/drivers/vfio-pci")
                .link("/sys/bus/pci/devices/0000:01:00.1/iommu_group", "../../../kernel/iommu_groups/11/"));
        assertThat(unknowns).isEmpty();
        PciDevice gpu = pci.device(a("0000:01:00.0")).orElseThrow();
        assertThat(gpu.vendorId() + ":" + gpu.deviceId()).isEqualTo("10de:2786");
        assertThat(gpu.classCode()).isEqualTo("0300");
        assertThat(gpu.driver()).contains("nvidia");
        assertThat(gpu.iommuGroup()).hasValue(11);
        assertThat(gpu.details().subsystemVendor()).contains("1462");
        assertThat(gpu.details().bootVga()).contains(false);
        assertThat(gpu.details().resetMethods()).containsExactly("flr", "bus");
        assertThat(gpu.details().driverOverride()).as("(null) is no override").isEmpty();
        assertThat(gpu.details().numaNode()).as("-1 is no NUMA node").isEmpty();
        assertThat(gpu.details().barSizes()).containsExactly(16L << 20, 64L << 30, 0L, 0L, 0L, 0L);
        assertThat(gpu.details().romSize()).contains(512L << 10);
        assertThat(gpu.details().resizableBar()).isTrue();
        assertThat(gpu.details().linkWidth()).hasValue(16);
        PciDevice audio = pci.device(a("0000:01:00.1")).orElseThrow();
        assertThat(audio.iommuGroup()).as("from the iommu_group link when no group section lists it").hasValue(11);
        assertThat(audio.driver()).contains("vfio-pci");
        assertThat(audio.details().driverOverride()).contains("vfio-pci");
        assertThat(pci.groups()).extracting(IommuGroup::id).containsExactly(11);
        assertThat(pci.groups().get(0).members()).containsExactly(a("0000:01:00.0"), a("0000:01:00.1"));
    }

    @Test
    void namesFromLspciWinOverPciIds() throws Exception {
        PciInventory pci = read(new ProbeText()
                .gpu("0000:01:00.0", "10de", "2786", "030000", 11, null)
                .gpu("0000:04:00.0", "1002", "67df", "030000", 13, null)
                .cmd("lspci -Dnnmm", "0000:01:00.0 \"VGA compatible controller [0300]\" \"NVIDIA Corporation [10de]\""
                        + " \"AD104 [GeForce RTX 4070] [2786]\" -ra1 \"Micro-Star International Co., Ltd. [MSI] [1462]\""
                        + " \"Device [5130]\"\n")
                .cmd("pciids", "10de:2786 NVIDIA Corporation AD104\n1002:67df Advanced Micro Devices, Inc. [AMD/ATI]"
                        + " Ellesmere [Radeon RX 470/480/570/570X/580/580X/590]\n"));
        assertThat(pci.device(a("0000:01:00.0")).orElseThrow().name()).contains("NVIDIA Corporation AD104 [GeForce RTX 4070]");
        assertThat(pci.device(a("0000:04:00.0")).orElseThrow().name())
                .contains("Advanced Micro Devices, Inc. [AMD/ATI] Ellesmere [Radeon RX 470/480/570/570X/580/580X/590]");
        assertThat(pci.device(a("0000:01:00.0")).orElseThrow().driver()).as("unbound").isEmpty();
    }

    @Test
    void oddEntriesAreSkippedAndNamed() throws Exception {
        PciInventory pci = read(new ProbeText()
                .device("pci0000:00", "vendor=0x8086")
                .device("0000:02:00.0", "vendor=0xffff", "class=0x020000")
                .gpu("0000:03:00.0", "8086", "125c", "020000", 4, "igc"));
        assertThat(pci.devices()).extracting(PciDevice::address).containsExactly(a("0000:03:00.0"));
        assertThat(unknowns).containsExactly("PCI entry 'pci0000:00' is not an address; skipped",
                "PCI device 0000:02:00.0: vendor, device or class unreadable; skipped");
    }

    @Test
    void resourceLines() {
        assertThat(PciReader.resourceSize("0x00000000f6000000 0x00000000f6ffffff 0x0000000000040200")).isEqualTo(16L << 20);
        assertThat(PciReader.resourceSize("0x0000000000000000 0x0000000000000000 0x0000000000000000")).isZero();
        assertThat(PciReader.resourceSize("garbage")).isZero();
        assertThat(PciReader.resourceSize("0xzz 0x10 0x0")).isZero();
    }
}
