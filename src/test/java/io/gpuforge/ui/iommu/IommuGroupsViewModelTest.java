package io.gpuforge.ui.iommu;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.Isolation;
import io.gpuforge.host.HostProbe;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.ui.common.I18n;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
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
}
