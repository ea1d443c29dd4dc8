package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeText;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.IommuState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whether the IOMMU is on, and whose doing it is when it is not. */
class IommuReaderTest {

    private final List<String> unknowns = new ArrayList<>();

    private IommuReader.Iommu read(ProbeText t) throws Exception {
        return new IommuReader(t.stream(), unknowns::add).read();
    }

    @Test
    void populatedGroupsMeanActive() throws Exception {
        IommuReader.Iommu i = read(new ProbeText().exists("/sys/firmware/acpi/tables", "/sys/firmware/acpi/tables/DMAR",
                "/sys/kernel/iommu_groups").group(0, "0000:00:00.0").group(1, "0000:00:01.0"));
        assertThat(i.state()).isEqualTo(IommuState.ENABLED);
        assertThat(i.reason()).isEqualTo(HostFacts.IommuReason.ACTIVE);
        assertThat(i.groups()).isEqualTo(2);
        assertThat(i.acpiDmar()).contains(true);
        assertThat(i.acpiIvrs()).contains(false);
        assertThat(unknowns).isEmpty();
    }

    @Test
    void noDmarOrIvrsTableMeansTheFirmwareHasItOff() throws Exception {
        IommuReader.Iommu i = read(new ProbeText().exists("/sys/firmware/acpi/tables", "/sys/kernel/iommu_groups"));
        assertThat(i.state()).isEqualTo(IommuState.DISABLED);
        assertThat(i.reason()).isEqualTo(HostFacts.IommuReason.FIRMWARE);
    }

    @Test
    void aTableWithoutGroupsMeansTheKernelDoesNotUseIt() throws Exception {
        IommuReader.Iommu i = read(new ProbeText().exists("/sys/firmware/acpi/tables", "/sys/firmware/acpi/tables/IVRS")
                .gpu("0000:09:00.0", "1002", "67df", "030000", -1, "amdgpu"));
        assertThat(i.state()).as("devices but no groups").isEqualTo(IommuState.DISABLED);
        assertThat(i.reason()).isEqualTo(HostFacts.IommuReason.KERNEL);
        assertThat(i.acpiIvrs()).contains(true);
    }

    @Test
    void unreadableTablesAreUnknownAndSaidSo() throws Exception {
        IommuReader.Iommu i = read(new ProbeText());
        assertThat(i.state()).isEqualTo(IommuState.UNKNOWN);
        assertThat(i.reason()).isEqualTo(HostFacts.IommuReason.UNKNOWN);
        assertThat(i.acpiDmar()).isEmpty();
        assertThat(unknowns).containsExactly("ACPI tables (DMAR/IVRS): /sys/firmware/acpi/tables not readable");
    }
}
