package io.gpuforge.host.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.host.HostSummary;
import io.gpuforge.domain.pci.IommuState;
import io.gpuforge.testing.Sysroots;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostSummaryReaderTest {

    @TempDir
    Path root;

    @Test
    void readsAnIntelHostWithIommuGroups() throws Exception {
        HostSummary s = new HostSummaryReader(Sysroots.intelHost(root, 23)).read();
        assertThat(s.hostname()).isEqualTo("pve-lab1");
        assertThat(s.operatingSystem()).contains("Debian GNU/Linux 12 (bookworm)");
        assertThat(s.kernel()).contains("6.8.12-4-pve");
        assertThat(s.architecture()).isEqualTo("x86_64");
        assertThat(s.cpuModel()).contains("13th Gen Intel(R) Core(TM) i7-13700K");
        assertThat(s.cpuVendor()).contains("Intel");
        assertThat(s.logicalCpus()).isEqualTo(4);
        assertThat(s.memoryBytes()).contains(65693184L * 1024);
        assertThat(s.iommu()).isEqualTo(IommuState.ENABLED);
        assertThat(s.iommuGroups()).isEqualTo(23);
    }

    @Test
    void emptyGroupDirectoryMeansIommuOff() throws Exception {
        HostSummary s = new HostSummaryReader(Sysroots.intelHost(root, 0)).read();
        assertThat(s.iommu()).isEqualTo(IommuState.DISABLED);
        assertThat(s.iommuGroups()).isZero();
    }

    @Test
    void kernelWithoutIommuSupportHasNoGroupDirectory() throws Exception {
        Sysroots.intelHost(root, 0);
        Files.delete(root.resolve("sys/kernel/iommu_groups"));
        assertThat(new HostSummaryReader(root).read().iommu()).isEqualTo(IommuState.DISABLED);
    }

    @Test
    void missingFilesAreUnknownNotErrors() throws Exception {
        HostSummary s = new HostSummaryReader(root).read();
        assertThat(s.operatingSystem()).isEmpty();
        assertThat(s.cpuModel()).isEmpty();
        assertThat(s.memoryBytes()).isEmpty();
        assertThat(s.iommu()).isEqualTo(IommuState.UNKNOWN);
    }

    @Test
    void amdAndArmCpusAndOsReleaseWithoutPrettyName() throws Exception {
        Sysroots.write(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
                + "model name\t: AMD Ryzen 9 7950X 16-Core Processor\n\nprocessor\t: 1\nvendor_id\t: AuthenticAMD\n");
        Sysroots.write(root, "usr/lib/os-release", "NAME='Arch Linux'\nBUILD_ID=rolling\n");
        Sysroots.write(root, "proc/version", "Linux version 6.12.1-arch1-1 (linux@archlinux) (gcc 14) #1 SMP\n");
        HostSummary s = new HostSummaryReader(root).read();
        assertThat(s.cpuVendor()).contains("AMD");
        assertThat(s.cpuModel()).contains("AMD Ryzen 9 7950X 16-Core Processor");
        assertThat(s.logicalCpus()).isEqualTo(2);
        assertThat(s.operatingSystem()).contains("Arch Linux");
        assertThat(s.kernel()).contains("6.12.1-arch1-1");
    }

    @Test
    void osReleaseQuotingAndEscapes() {
        assertThat(HostSummaryReader.prettyName("NAME=\"Proxmox VE\"\nVERSION=\"8.4\"\n")).contains("Proxmox VE 8.4");
        assertThat(HostSummaryReader.prettyName("PRETTY_NAME=\"Say \\\"hi\\\"\"\n")).contains("Say \"hi\"");
        assertThat(HostSummaryReader.prettyName("# nothing\n")).isEmpty();
    }

    @Test
    void thisComputerCanBeRead() {
        HostSummary s = HostSummaryReader.thisComputer();
        assertThat(s.hostname()).isNotBlank();
        assertThat(s.logicalCpus()).isPositive();
    }
}
