package io.gpuforge.host.listing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.gpuforge.domain.pci.ListingReport;
import io.gpuforge.domain.pci.GpuPlacement;
import io.gpuforge.domain.pci.IommuGroup;
import io.gpuforge.domain.pci.Isolation;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.pci.PciInventory;
import io.gpuforge.testing.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Every real listing in shared/fixtures/hosts, with what a reader of the file sees in it, plus the other
 * shapes people post and the garbage the parser must refuse.
 */
class ListingParserTest {

    private static PciAddress a(String s) {
        return PciAddress.parse(s);
    }

    private static PciInventory fixture(String name) throws Exception {
        return ListingParser.parse(SharedFixtures.read("hosts/" + name));
    }

    @Test
    void z790WithRtx4070AndRx590() throws Exception {
        PciInventory inv = fixture("01-intel-z790-rtx4070-rx590.txt");
        assertThat(inv.groups()).hasSize(14);
        assertThat(inv.groups()).extracting(IommuGroup::id).isSorted();
        assertThat(inv.group(10).orElseThrow().members()).hasSize(4);
        assertThat(inv.gpus()).extracting(GpuPlacement::address, GpuPlacement::group, GpuPlacement::isolation)
                .containsExactly(tuple(a("0000:01:00.0"), 11, Isolation.ISOLATED),
                        tuple(a("0000:04:00.0"), 13, Isolation.ISOLATED));
        assertThat(inv.gpus().get(0).functions()).containsExactly(a("0000:01:00.0"), a("0000:01:00.1"));
        PciDevice rtx = inv.device(a("0000:01:00.0")).orElseThrow();
        assertThat(rtx.vendorId()).isEqualTo("10de");
        assertThat(rtx.deviceId()).isEqualTo("2786");
        assertThat(rtx.classCode()).isEqualTo("0300");
        assertThat(rtx.name()).contains("NVIDIA Corporation AD104 [GeForce RTX 4070]");
        assertThat(rtx.driver()).isEmpty();
        assertThat(inv.device(a("0000:04:00.1")).orElseThrow().name())
                .contains("Advanced Micro Devices, Inc. [AMD/ATI] Ellesmere HDMI Audio [Radeon RX 470/480 / 570/580/590]");
    }

    @Test
    void z690WithGpuAndAudioInDifferentGroupsPlusLspciDrivers() throws Exception {
        byte[] listing = SharedFixtures.read("hosts/03-intel-z690-rx6650xt.txt");
        byte[] lspci = SharedFixtures.read("hosts/03-intel-z690-rx6650xt.lspci-nnk.txt");
        PciInventory alone = ListingParser.parse(listing);
        assertThat(alone.groups()).hasSize(24);
        assertThat(alone.groups()).extracting(IommuGroup::id).containsExactlyElementsOf(
                IntStream.range(0, 24).boxed().toList());
        assertThat(alone.device(a("03:00.0")).orElseThrow().iommuGroup()).hasValue(19);
        assertThat(alone.device(a("03:00.1")).orElseThrow().iommuGroup()).hasValue(20);
        GpuPlacement amd = alone.gpus().stream().filter(g -> g.address().equals(a("03:00.0"))).findFirst().orElseThrow();
        assertThat(amd.functions()).as("its audio function is in another group").containsExactly(a("0000:03:00.0"));
        assertThat(amd.isolation()).isEqualTo(Isolation.ISOLATED);
        assertThat(alone.device(a("00:00.0")).orElseThrow().name()).contains("Intel Corporation Device");

        String both = new String(listing, StandardCharsets.UTF_8) + "\n" + new String(lspci, StandardCharsets.UTF_8);
        PciInventory merged = ListingParser.parse(both);
        assertThat(merged.device(a("03:00.0")).orElseThrow().driver()).contains("vfio-pci");
        assertThat(merged.device(a("03:00.1")).orElseThrow().driver()).contains("vfio-pci");
        assertThat(merged.device(a("03:00.0")).orElseThrow().details().kernelModules()).containsExactly("amdgpu");
        assertThat(merged.device(a("00:02.0")).orElseThrow().driver()).as("not in the lspci excerpt").isEmpty();
        assertThat(merged.groups()).hasSize(24);
    }

    @Test
    void z370OneLineLowerCaseGpuSharingWithTheRootPort() throws Exception {
        PciInventory inv = fixture("07-intel-z370-gt1030.txt");
        assertThat(inv.devices()).hasSize(21);
        assertThat(inv.groups()).extracting(IommuGroup::id).isSorted().contains(0, 1, 2, 14);
        GpuPlacement gt1030 = inv.gpus().stream().filter(g -> g.address().equals(a("01:00.0"))).findFirst().orElseThrow();
        assertThat(gt1030.group()).isEqualTo(2);
        assertThat(gt1030.isolation()).isEqualTo(Isolation.SHARES_WITH_BRIDGES);
        assertThat(gt1030.sharedWith()).containsExactly(a("0000:00:01.0"));
        assertThat(gt1030.functions()).containsExactly(a("0000:01:00.0"), a("0000:01:00.1"));
        GpuPlacement igpu = inv.gpus().stream().filter(g -> g.address().equals(a("00:02.0"))).findFirst().orElseThrow();
        assertThat(igpu.isolation()).isEqualTo(Isolation.ISOLATED);
    }

    @Test
    void x570FourSpaceIndentTwoGpus() throws Exception {
        PciInventory inv = fixture("09-amd-x570-gtx1070-hd7750.txt");
        assertThat(inv.groups()).hasSize(31);
        assertThat(inv.gpus()).extracting(GpuPlacement::address).containsExactly(a("09:00.0"), a("0a:00.0"));
        assertThat(inv.gpus()).allMatch(g -> g.isolation() == Isolation.ISOLATED && g.functions().size() == 2);
        assertThat(inv.group(14).orElseThrow().members()).hasSizeGreaterThanOrEqualTo(6);
        assertThat(inv.device(a("0a:00.0")).orElseThrow().deviceId()).isEqualTo("683f");
    }

    @Test
    void otherShapes() throws Exception {
        String sysfsPaths = "/sys/kernel/iommu_groups/7/devices/0000:01:00.1\n/sys/kernel/iommu_groups/7/devices/0000:01:00.0\n"
                + "/sys/kernel/iommu_groups/1/devices/0000:00:01.0\n";
        PciInventory p = ListingParser.parse(sysfsPaths);
        assertThat(p.group(7).orElseThrow().members()).containsExactly(a("01:00.0"), a("01:00.1"));
        assertThat(p.device(a("01:00.0")).orElseThrow().vendorId()).isNull();

        String tree = "IOMMU Group 12:\n├── 0000:2b:00.0 VGA compatible controller [0300]: NVIDIA Corporation GA102 [10de:2204]\n"
                + "└── 0000:2b:00.1 Audio device [0403]: NVIDIA Corporation GA102 High Definition Audio Controller [10de:1aef]\n"
                + "IOMMU Group 3:\n└── 0000:00:01.1 PCI bridge [0604]: AMD Starship [1022:1483]\n";
        PciInventory t = ListingParser.parse(tree);
        assertThat(t.gpus()).singleElement().satisfies(g -> assertThat(g.functions()).hasSize(2));
        assertThat(t.groups()).extracting(IommuGroup::id).containsExactly(3, 12);

        String noIds = "IOMMU Group 1:\n  01:00.0 VGA compatible controller: NVIDIA Corporation GP108 [GeForce GT 1030]\n"
                + "  01:00.1 Audio device: NVIDIA Corporation GP108 High Definition Audio Controller\n"
                + "  02:00.0 Frobnicator: Acme Widget\n";
        PciInventory n = ListingParser.parse(noIds);
        PciDevice gpu = n.device(a("01:00.0")).orElseThrow();
        assertThat(gpu.classCode()).as("from the class name").isEqualTo("0300");
        assertThat(gpu.vendorId()).isNull();
        assertThat(gpu.name()).contains("NVIDIA Corporation GP108 [GeForce GT 1030]");
        assertThat(n.device(a("02:00.0")).orElseThrow().classCode()).as("unknown class name").isNull();
        assertThat(n.gpus()).singleElement().satisfies(g -> assertThat(g.isolation()).isEqualTo(Isolation.SHARED));

        String oneLineColon = "$ ./iommu.sh\n```\nIOMMU Group 2: 00:01.0 PCI bridge [0604]: Intel [8086:1901]\n"
                + "IOMMU Group 2: 01:00.0 3D controller [0302]: NVIDIA Tesla P40 [10de:1b38] (rev a1)\n```\n";
        PciInventory o = ListingParser.parse(oneLineColon);
        assertThat(o.gpus()).singleElement().satisfies(g -> assertThat(g.isolation()).isEqualTo(Isolation.SHARES_WITH_BRIDGES));
    }

    @Test
    void garbageIsRejectedWithAReason() {
        assertThatThrownBy(() -> ListingParser.parse(new byte[0])).hasMessage("The listing is empty");
        byte[] binary = new byte[4096];
        new Random(7).nextBytes(binary);
        assertThatThrownBy(() -> ListingParser.parse(binary)).hasMessageContaining("binary");
        byte[] huge = "IOMMU Group 1:\n\t00:00.0 Host bridge [0600]: X [8086:0000]\n".repeat(200_000)
                .getBytes(StandardCharsets.UTF_8);
        assertThat(huge.length).isGreaterThan(10_000_000);
        assertThatThrownBy(() -> ListingParser.parse(huge)).hasMessageContaining("MB");
        assertThatThrownBy(() -> ListingParser.parse("Hello, my GPU does not work\nplease help\n"))
                .hasMessageContaining("No IOMMU group with a device was found in the listing");
        assertThatThrownBy(() -> ListingParser.parse("IOMMU Group 1:\n\t01:00.0 A [0300]: B\nIOMMU Group 2:\n\t01:00.0 A [0300]: B\n"))
                .hasMessageContaining("two IOMMU groups").hasMessageContaining("paste only one");
    }

    @Test
    void truncatedListingsAreReadAsPartialNotRefused() throws Exception {
        ListingReport cut = ListingParser.read(
                "IOMMU Group 11:\n\t01:00.0 VGA compatible controller [0300]: NVIDIA Corporation AD104 [GeForce RTX 40");
        assertThat(cut.partial()).isTrue();
        assertThat(cut.gaps()).singleElement().satisfies(g -> assertThat(g.reason()).contains("line 2 is cut off"));
        assertThat(cut.inventory().gpus()).singleElement().satisfies(g -> assertThat(g.group()).isEqualTo(11));
        ListingReport empty = ListingParser.read("IOMMU Group 11:\n\t01:00.0 VGA [0300]: N [10de:2786]\nIOMMU Group 12:\n");
        assertThat(empty.gaps()).singleElement().satisfies(g -> assertThat(g.reason()).contains("group 12")
                .contains("no device"));
        assertThat(empty.inventory().groups()).hasSize(1);
    }

    @Test
    void addressesAlwaysCarryTheDomain() throws Exception {
        PciInventory inv = ListingParser.parse("IOMMU group 3 0a:00.0 VGA compatible controller [0300]: X [1002:683f]\n");
        assertThat(inv.devices().get(0).address().toString()).isEqualTo("0000:0a:00.0");
        assertThat(List.of(a("0001:00:00.0"), a("00:1f.3"), a("00:02.0")).stream().sorted().toList())
                .containsExactly(a("00:02.0"), a("00:1f.3"), a("0001:00:00.0"));
    }
}
