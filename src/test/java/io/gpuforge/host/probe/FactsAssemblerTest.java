package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeText;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.host.BootSetup;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.IommuState;
import io.gpuforge.domain.pci.PciAddress;
import org.junit.jupiter.api.Test;

/** The readers' parts put together into one host's facts. */
class FactsAssemblerTest {

    @Test
    void aHostThatShowsNothingIsUnknownInEveryPartAndSaysSoInOrder() throws Exception {
        HostFacts f = new ProbeText().facts();
        assertThat(f.source()).isEqualTo("probe-text");
        assertThat(f.iommu()).isEqualTo(IommuState.UNKNOWN);
        assertThat(f.boot().loader()).isEqualTo(BootSetup.Loader.UNKNOWN);
        assertThat(f.unknowns()).containsExactly(
                "ACPI tables (DMAR/IVRS): /sys/firmware/acpi/tables not readable",
                "kernel log (dmesg): not readable (needs root on most hosts)",
                "bootloader: neither /etc/default/grub nor systemd-boot configuration found",
                "loaded modules: /proc/modules not readable",
                "initramfs tool: none of initramfs-tools, dracut, mkinitcpio found",
                "management interface: /proc/net/route not readable",
                "root file system: /proc/mounts not readable");
    }

    @Test
    void eachPartComesFromItsReader() throws Exception {
        HostFacts f = new ProbeText().file("/etc/hostname", "pve-gpu1\n").file("/proc/cmdline", "ro quiet iommu=pt \n")
                .file("/proc/sys/kernel/osrelease", "6.8.12-4-pve\n").exists("/etc/pve", "/sys/kernel/iommu_groups",
                        "/sys/firmware/acpi/tables", "/sys/firmware/acpi/tables/IVRS", "/usr/sbin/update-initramfs")
                .file("/etc/default/grub", "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n").file("/proc/modules", "vfio_pci 1 0\n")
                .cmd("dmesg", "[0.5] AMD-Vi: Interrupt remapping enabled\n")
                .gpu("0000:81:00.0", "10de", "2204", "030000", 40, "vfio-pci").facts();
        assertThat(f.summary().hostname()).isEqualTo("pve-gpu1");
        assertThat(f.summary().iommuGroups()).isEqualTo(1);
        assertThat(f.cmdline()).contains("ro quiet iommu=pt");
        assertThat(f.iommuReason()).isEqualTo(HostFacts.IommuReason.ACTIVE);
        assertThat(f.acpiIvrs()).contains(true);
        assertThat(f.interruptRemapping()).contains(true);
        assertThat(f.boot().grubCmdline()).contains("quiet");
        assertThat(f.loadedModules()).containsExactly("vfio_pci");
        assertThat(f.initramfs().tool()).isEqualTo(HostFacts.Initramfs.Tool.INITRAMFS_TOOLS);
        assertThat(f.pci().device(PciAddress.parse("0000:81:00.0")).orElseThrow().driver()).contains("vfio-pci");
        assertThat(f.proxmox()).isTrue();
        assertThat(f.files()).containsKey("/etc/default/grub");
        assertThat(f.present()).contains("/etc/pve");
    }
}
