package io.gpuforge.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.host.ProbeText;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The kernel arguments passthrough needs, from the CPU vendor, the IOMMU state and the boot console. */
class KernelArgumentsTest {

    private static ProbeText host(String vendorId, String kernel, String cmdline) {
        return new ProbeText().file("/proc/cpuinfo", "processor\t: 0\nvendor_id\t: " + vendorId + "\n").cpus(1)
                .file("/proc/sys/kernel/osrelease", kernel + "\n").file("/proc/cmdline", cmdline + "\n")
                .exists("/sys/kernel/iommu_groups");
    }

    private static KernelArguments of(HostFacts f) {
        return KernelArguments.forPassthrough(f, f.pci().devices());
    }

    @Test
    void intelWithoutGroupsGetsVtdTurnedOn() throws Exception {
        HostFacts f = host("GenuineIntel", "6.5.0-14-generic", "BOOT_IMAGE=/vmlinuz ro quiet")
                .gpu("0000:01:00.0", "10de", "2786", "030000", -1, "nvidia").facts();
        KernelArguments a = of(f);
        assertThat(a.add()).containsExactly("intel_iommu=on", "iommu=pt");
        assertThat(a.remove()).containsExactlyInAnyOrder("intel_iommu=off", "amd_iommu=off", "iommu=off");
        assertThat(io.gpuforge.testing.English.english(a.notes())).isEmpty();
    }

    @Test
    void intelAskedForAlreadyOrActiveIsNotAskedAgain() throws Exception {
        assertThat(of(host("GenuineIntel", "6.5.0", "ro intel_iommu=on")
                .gpu("0000:01:00.0", "10de", "2786", "030000", -1, "nvidia").facts()).add()).containsExactly("iommu=pt");
        assertThat(of(host("GenuineIntel", "6.5.0", "ro")
                .gpu("0000:01:00.0", "10de", "2786", "030000", 11, "nvidia").facts()).add()).containsExactly("iommu=pt");
    }

    @Test
    void amdNeedsOnlyPassThroughMode() throws Exception {
        assertThat(of(host("AuthenticAMD", "6.8.12-4-pve", "ro")
                .gpu("0000:09:00.0", "1002", "67df", "030000", -1, "amdgpu").facts()).add()).containsExactly("iommu=pt");
    }

    /**
     * The kernel lab's guest: QEMU's TCG CPU says AuthenticAMD, its IOMMU is an emulated VT-d (a DMAR table), and its
     * command line had intel_iommu=off. The vendor alone gave only iommu=pt; a kernel that leaves VT-d off unless asked
     * would then boot without an IOMMU.
     */
    @Test
    void theFirmwaresTableTellsVtdFromAmdViWhereTheCpuVendorDiffers() throws Exception {
        ProbeText vtdOnAmdModel = host("AuthenticAMD", "6.1.0-41-amd64", "ro intel_iommu=off")
                .exists("/sys/firmware/acpi/tables").exists("/sys/firmware/acpi/tables/DMAR")
                .gpu("0000:01:00.0", "1234", "1111", "030000", -1, "bochs-drm");
        KernelArguments a = of(vtdOnAmdModel.facts());
        assertThat(a.add()).containsExactly("intel_iommu=on", "iommu=pt");
        assertThat(a.applyTo("ro intel_iommu=off")).isEqualTo("ro intel_iommu=on iommu=pt");

        ProbeText amdViOnIntelModel = host("GenuineIntel", "6.1.0-41-amd64", "ro")
                .exists("/sys/firmware/acpi/tables").exists("/sys/firmware/acpi/tables/IVRS")
                .gpu("0000:01:00.0", "1002", "67df", "030000", -1, "amdgpu");
        assertThat(of(amdViOnIntelModel.facts()).add()).containsExactly("iommu=pt");
    }

    @Test
    void theBootConsoleIsReleasedTheWayTheKernelNeeds() throws Exception {
        ProbeText modern = host("AuthenticAMD", "6.1.0-18-amd64", "ro").device("0000:0a:00.0", "vendor=0x10de",
                "device=0x2204", "class=0x030000", "boot_vga=1");
        KernelArguments a = of(modern.facts());
        assertThat(a.add()).containsExactly("iommu=pt", "initcall_blacklist=sysfb_init");
        assertThat(io.gpuforge.testing.English.english(a.notes())).singleElement().satisfies(n -> assertThat(n).contains("boot console").contains("SSH"));

        ProbeText old = host("AuthenticAMD", "5.10.0-28-amd64", "ro").device("0000:0a:00.0", "vendor=0x10de",
                "device=0x2204", "class=0x030000", "boot_vga=1");
        assertThat(of(old.facts()).add()).containsExactly("iommu=pt", "video=efifb:off");
    }

    @Test
    void appliedToACommandLineTheOthersStayInOrder() {
        KernelArguments a = new KernelArguments(List.of("iommu=pt"), List.of("iommu=off"), List.of());
        assertThat(a.applyTo("root=/dev/sda1 iommu=off quiet")).isEqualTo("root=/dev/sda1 quiet iommu=pt");
        assertThat(a.joined()).isEqualTo("iommu=pt");
    }
}
