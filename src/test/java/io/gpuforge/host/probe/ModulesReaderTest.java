package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeText;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.host.ModprobeConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Loaded modules, modprobe configuration and the initramfs tool. */
class ModulesReaderTest {

    private final List<String> unknowns = new ArrayList<>();

    private ModulesReader reader(ProbeText t) throws Exception {
        return new ModulesReader(t.stream(), unknowns::add);
    }

    @Test
    void loadedModulesAreTheFirstWordOfProcModules() throws Exception {
        ModulesReader r = reader(new ProbeText().file("/proc/modules", "vfio_pci 16384 0 - Live 0xffffffffc0a1d000\n"
                + "nvidia 56815616 0 - Live 0xffffffffc1000000 (POE)\n"));
        assertThat(r.loaded()).containsExactly("vfio_pci", "nvidia");
        assertThat(unknowns).isEmpty();
        assertThat(reader(new ProbeText()).loaded()).isEmpty();
        assertThat(unknowns).containsExactly("loaded modules: /proc/modules not readable");
    }

    @Test
    void modprobeConfigurationFromModprobeDAndTheLoadLists() throws Exception {
        ModprobeConfig c = reader(new ProbeText()
                .file("/etc/modprobe.d/vfio.conf", "options vfio-pci ids=10de:2204,10de:1aef\nsoftdep nvidia pre: vfio-pci\n")
                .file("/etc/modules", "vfio\nvfio_iommu_type1\n")
                .file("/etc/modules-load.d/vfio.conf", "vfio-pci\n")
                .file("/etc/default/grub", "GRUB_CMDLINE_LINUX_DEFAULT=\"\"\n")).modprobe();
        assertThat(c.vfioIds()).containsExactly("10de:2204", "10de:1aef");
        assertThat(c.softdeps().get("nvidia")).containsExactly("vfio_pci");
        assertThat(c.modulesLoaded()).containsExactly("vfio", "vfio_iommu_type1", "vfio_pci");
        assertThat(c.files()).containsOnlyKeys("/etc/modprobe.d/vfio.conf", "/etc/modules", "/etc/modules-load.d/vfio.conf");
    }

    @Test
    void theInitramfsToolAndWhetherVfioIsInTheImage() throws Exception {
        HostFacts.Initramfs debian = reader(new ProbeText().exists("/usr/sbin/update-initramfs", "/usr/bin/dracut")
                .cmd("lsinitramfs", "usr/lib/modules/6.8.12-4-pve/kernel/drivers/vfio/pci/vfio-pci.ko\n")).initramfs();
        assertThat(debian.tool()).as("initramfs-tools first: Debian may have dracut installed beside it")
                .isEqualTo(HostFacts.Initramfs.Tool.INITRAMFS_TOOLS);
        assertThat(debian.vfioInImage()).contains(true);
        assertThat(reader(new ProbeText().exists("/usr/sbin/dracut")).initramfs().tool())
                .isEqualTo(HostFacts.Initramfs.Tool.DRACUT);
        HostFacts.Initramfs arch = reader(new ProbeText().exists("/usr/bin/mkinitcpio").cmd("lsinitramfs", "")).initramfs();
        assertThat(arch.tool()).isEqualTo(HostFacts.Initramfs.Tool.MKINITCPIO);
        assertThat(arch.vfioInImage()).contains(false);
        assertThat(unknowns).isEmpty();
        HostFacts.Initramfs none = reader(new ProbeText()).initramfs();
        assertThat(none.tool()).isEqualTo(HostFacts.Initramfs.Tool.UNKNOWN);
        assertThat(none.vfioInImage()).isEmpty();
        assertThat(unknowns).containsExactly("initramfs tool: none of initramfs-tools, dracut, mkinitcpio found");
    }
}
