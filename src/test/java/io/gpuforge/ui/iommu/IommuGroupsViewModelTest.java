package io.gpuforge.ui.iommu;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.passthrough.Coverage;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.Isolation;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmState;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.listing.ListingParser;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.ui.common.I18n;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The IOMMU view's rows and state line, computed without a window. */
class IommuGroupsViewModelTest {

    private final I18n i18n = new I18n(Locale.ENGLISH);

    private static HostFacts pveGpu1(Path dir) throws Exception {
        return new HostProbe().probeLocal(Optional.of(HostTrees.proxmoxSystemdBoot(dir)));
    }

    @Test
    void gpuGroupsComeOpenAndColouredByIsolationOtherGroupsFolded(@TempDir Path dir) throws Exception {
        IommuTable t = IommuGroupsViewModel.of(pveGpu1(dir), null, i18n);
        assertThat(t.state()).isEqualTo("8 IOMMU groups, 4 GPUs. IOMMU: active");
        assertThat(t.groups()).hasSize(8);
        IommuTable.Group gpu = t.groups().stream().filter(g -> g.id() == 40).findFirst().orElseThrow();
        assertThat(gpu.summary()).isEqualTo("GPU, isolated");
        assertThat(gpu.expanded()).isTrue();
        assertThat(gpu.isolation()).contains(Isolation.ISOLATED);
        assertThat(gpu.devices()).extracting(IommuTable.Device::address).containsExactly("0000:81:00.0", "0000:81:00.1");
        assertThat(gpu.devices().get(0).ids()).isEqualTo("10de:2204");
        assertThat(gpu.devices().get(0).driver()).isEqualTo("vfio-pci");
        assertThat(t.groups()).filteredOn(g -> g.isolation().isEmpty())
                .isNotEmpty().allSatisfy(g -> assertThat(g.expanded()).isFalse());
    }

    @Test
    void theStateLineAndTheRowsFollowTheFactsTheErrorAndTheLanguageTogether(@TempDir Path dir) throws Exception {
        SimpleObjectProperty<HostFacts> facts = new SimpleObjectProperty<>();
        SimpleStringProperty error = new SimpleStringProperty();
        IommuGroupsViewModel vm = new IommuGroupsViewModel(facts, error, i18n);
        assertThat(vm.tableProperty().get().state()).isEqualTo("Reading the host…");
        facts.set(pveGpu1(dir));
        assertThat(vm.tableProperty().get().groups()).hasSize(8);
        i18n.setLocale(Locale.SIMPLIFIED_CHINESE);
        assertThat(vm.tableProperty().get().state()).doesNotContain("IOMMU groups,");
        error.set("connection refused");
        assertThat(vm.tableProperty().get().groups()).isEmpty();
        assertThat(vm.tableProperty().get().state()).contains("connection refused");
        vm.dispose();
        error.set(null);
        assertThat(vm.tableProperty().get().state()).as("a disposed view model no longer follows").contains("connection refused");
    }
    @Test
    void gpuGroupsComeFirstThenTheOthersByNumber(@TempDir Path dir) throws Exception {
        IommuTable t = IommuGroupsViewModel.of(new HostProbe().probeLocal(Optional.of(HostTrees.intelGrub(dir))), null, i18n);
        assertThat(t.groups()).extracting(IommuTable.Group::id).containsExactly(11, 13, 0, 1, 14, 15);
    }

    @Test
    void theFilterKeepsGroupsWithAMatchingDeviceOpenAndSaysHowManyAreShown(@TempDir Path dir) throws Exception {
        IommuTable t = IommuGroupsViewModel.of(pveGpu1(dir), null, i18n, Map.of(), "nvme", Coverage.wholeHost());
        assertThat(t.groups()).extracting(IommuTable.Group::id).containsExactly(20, 21);
        assertThat(t.groups()).allSatisfy(g -> assertThat(g.expanded()).isTrue());
        assertThat(t.state()).endsWith("Showing 2 matching groups.");
        assertThat(IommuGroupsViewModel.of(pveGpu1(dir), null, i18n, Map.of(), "c2:00", Coverage.wholeHost()).groups())
                .extracting(IommuTable.Group::id).containsExactly(43);
    }

    @Test
    void devicesShowTheVmTheyAreAssignedToAndTheFilterFindsThem(@TempDir Path dir) throws Exception {
        Map<PciAddress, String> vms = Map.of(PciAddress.parse("0000:82:00.0"), "101 (llm-train)");
        IommuTable t = IommuGroupsViewModel.of(pveGpu1(dir), null, i18n, vms, "llm-train", Coverage.wholeHost());
        assertThat(t.groups()).singleElement().satisfies(g -> {
            assertThat(g.id()).isEqualTo(41);
            assertThat(g.devices().get(0).vm()).contains("101 (llm-train)");
            assertThat(g.devices().get(1).vm()).isEmpty();
        });
    }

    @Test
    void eachGpuCarriesItsVerdictWithTheReasonsAndFixes(@TempDir Path dir) throws Exception {
        IommuTable t = IommuGroupsViewModel.of(new HostProbe().probeLocal(Optional.of(HostTrees.intelGrub(dir))), null, i18n);
        IommuTable.Device rtx = t.groups().get(0).devices().get(0);
        assertThat(rtx.address()).isEqualTo("0000:01:00.0");
        IommuTable.Badge b = rtx.verdict().orElseThrow();
        assertThat(b.kind()).isEqualTo(Verdict.Kind.NEEDS_HOST_SETUP);
        assertThat(b.text()).isEqualTo("Needs host setup");
        assertThat(b.reasons()).contains("•").contains("Fix: ");
        assertThat(t.groups().get(0).devices().get(1).verdict()).as("the GPU's audio function has no badge of its own").isEmpty();
        assertThat(t.groups().get(2).devices()).allSatisfy(d -> assertThat(d.verdict()).isEmpty());
    }

    @Test
    void copyAsTextIsTheClassicListingAndReadsBackAsTheSameGroups(@TempDir Path dir) throws Exception {
        HostFacts f = pveGpu1(dir);
        IommuGroupsViewModel vm = new IommuGroupsViewModel(new SimpleObjectProperty<>(f), new SimpleStringProperty(), i18n);
        String text = vm.copyText();
        assertThat(text).startsWith("IOMMU Group 0:\n\t00:00.0 Host bridge [0600]: ")
                .contains("IOMMU Group 40:\n\t81:00.0 VGA compatible controller [0300]: ")
                .contains("[10de:2204]\n\t81:00.1 Audio device [0403]: ");
        assertThat(ListingParser.read(text.getBytes(StandardCharsets.UTF_8)).inventory().groups())
                .isEqualTo(f.pci().groups());
        vm.dispose();
    }

    @Test
    void theVmColumnGetsTheWholeCardOfAnAssignedGpuFromTheInventory(@TempDir Path dir) throws Exception {
        HostFacts f = pveGpu1(dir);
        VmRef train = new VmRef("pve-gpu1", "101");
        ClusterInventory inv = new ClusterInventory("8.4.1", "lab", List.of(),
                List.of(new VmInfo(train, "train-01", VmState.RUNNING, false, 16, 64L << 30, Optional.empty())),
                List.of(new GpuInfo("pve-gpu1", PciAddress.parse("0000:82:00.0"), "RTX 3090", Optional.empty(),
                        OptionalInt.of(41), Optional.of("gpu-a"), Optional.of(train), true),
                        new GpuInfo("pve-gpu1", PciAddress.parse("0000:81:00.0"), "RTX 3090", Optional.empty(),
                                OptionalInt.of(40), Optional.empty(), Optional.empty(), true),
                        new GpuInfo("other", PciAddress.parse("0000:c1:00.0"), "RTX 3090", Optional.empty(),
                                OptionalInt.of(42), Optional.empty(), Optional.of(train), true)));
        Map<PciAddress, String> vms = IommuGroupsViewModel.assignmentsOf(inv, "pve-gpu1", f);
        assertThat(vms).containsOnly(Map.entry(PciAddress.parse("0000:82:00.0"), "101 (train-01)"),
                Map.entry(PciAddress.parse("0000:82:00.1"), "101 (train-01)"));
    }
}
