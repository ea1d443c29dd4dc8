package io.gpuforge.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.host.ProbeText;
import org.junit.jupiter.api.Test;

/** vfio into the initramfs with initramfs-tools, dracut and mkinitcpio, and the command that rebuilds it. */
class InitramfsToolTest {

    private static final VfioModules MODERN = VfioModules.forKernel("6.8.12-4-pve");
    private static final VfioModules OLDER = VfioModules.forKernel("5.15.0-91-generic");

    private static PlanPart add(HostFacts f, VfioModules m) {
        return InitramfsTool.forHost(f).addModules(f, m);
    }

    @Test
    void theModulesFollowTheKernel() {
        assertThat(MODERN.names()).containsExactly("vfio", "vfio_iommu_type1", "vfio_pci");
        assertThat(OLDER.names()).containsExactly("vfio", "vfio_iommu_type1", "vfio_pci", "vfio_virqfd");
        assertThat(MODERN.isObsolete(" vfio-virqfd ")).isTrue();
        assertThat(OLDER.isObsolete("vfio_virqfd")).isFalse();
    }

    @Test
    void initramfsToolsListsThemInEtcModulesKeepingWhatIsThere() throws Exception {
        HostFacts f = new ProbeText().exists("/usr/sbin/update-initramfs")
                .file("/etc/modules", "# /etc/modules: kernel modules to load at boot time.\nloop\nvfio\n").facts();
        PlanPart p = add(f, MODERN);
        assertThat(p.edits()).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("/etc/modules");
            assertThat(e.after()).isEqualTo("# /etc/modules: kernel modules to load at boot time.\nloop\nvfio\n"
                    + "vfio_iommu_type1\nvfio_pci\n");
        });
        assertThat(InitramfsTool.forHost(f).rebuildCommand()).isEqualTo("update-initramfs -u -k all");
    }

    @Test
    void vfioVirqfdIsDroppedWhereTheKernelHasNoneAndKeptWhereItHas() throws Exception {
        String modules = "vfio\nvfio-virqfd\nvfio_iommu_type1\nvfio_pci\n";
        HostFacts f = new ProbeText().exists("/etc/initramfs-tools").file("/etc/modules", modules).facts();
        assertThat(add(f, MODERN).edits()).singleElement()
                .satisfies(e -> assertThat(e.after()).isEqualTo("vfio\nvfio_iommu_type1\nvfio_pci\n"));
        assertThat(add(f, OLDER).edits()).as("vfio-virqfd is vfio_virqfd to modprobe").isEmpty();
    }

    @Test
    void aMissingEtcModulesIsCreated() throws Exception {
        HostFacts f = new ProbeText().exists("/usr/sbin/update-initramfs").facts();
        assertThat(add(f, OLDER).edits()).singleElement().satisfies(e -> {
            assertThat(e.before()).isEmpty();
            assertThat(e.after()).isEqualTo("vfio\nvfio_iommu_type1\nvfio_pci\nvfio_virqfd\n");
        });
    }

    @Test
    void noToolFoundIsTreatedAsInitramfsTools() throws Exception {
        HostFacts f = new ProbeText().facts();
        assertThat(add(f, MODERN).edits()).extracting(PassthroughPlan.FileEdit::path).containsExactly("/etc/modules");
        assertThat(InitramfsTool.forHost(f).rebuildCommand()).isEqualTo("update-initramfs -u -k all");
    }

    @Test
    void dracutGetsADropInThatForcesTheDrivers() throws Exception {
        HostFacts f = new ProbeText().exists("/usr/bin/dracut").facts();
        PlanPart p = add(f, MODERN);
        assertThat(p.edits()).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo(Planner.DRACUT_FILE);
            assertThat(e.before()).isEmpty();
            assertThat(e.after()).endsWith("force_drivers+=\" vfio vfio_iommu_type1 vfio_pci \"\n");
        });
        assertThat(InitramfsTool.forHost(f).rebuildCommand()).isEqualTo("dracut -f --regenerate-all");
        HostFacts applied = new ProbeText().exists("/usr/sbin/dracut")
                .file(Planner.DRACUT_FILE, p.edits().get(0).after()).facts();
        assertThat(add(applied, MODERN).edits()).as("planned again after the apply").isEmpty();
    }

    @Test
    void mkinitcpioPutsThemFirstInModules() throws Exception {
        String conf = "# vim:set ft=sh\nMODULES=(btrfs vfio)\nBINARIES=()\nHOOKS=(base udev autodetect)\n";
        HostFacts f = new ProbeText().exists("/usr/bin/mkinitcpio").file("/etc/mkinitcpio.conf", conf).facts();
        PlanPart p = add(f, MODERN);
        assertThat(p.edits()).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("/etc/mkinitcpio.conf");
            assertThat(e.after()).isEqualTo("# vim:set ft=sh\nMODULES=(vfio vfio_iommu_type1 vfio_pci btrfs)\nBINARIES=()\n"
                    + "HOOKS=(base udev autodetect)\n");
        });
        assertThat(InitramfsTool.forHost(f).rebuildCommand()).isEqualTo("mkinitcpio -P");
        HostFacts applied = new ProbeText().exists("/usr/bin/mkinitcpio")
                .file("/etc/mkinitcpio.conf", p.edits().get(0).after()).facts();
        assertThat(add(applied, MODERN).edits()).isEmpty();
    }

    @Test
    void mkinitcpioWithoutItsConfigurationIsToldAndWithoutAModulesLineGetsOne() throws Exception {
        PlanPart missing = add(new ProbeText().exists("/usr/bin/mkinitcpio").facts(), MODERN);
        assertThat(missing.edits()).isEmpty();
        assertThat(io.gpuforge.testing.English.english(missing.notes())).singleElement().satisfies(n -> assertThat(n).contains("/etc/mkinitcpio.conf"));
        assertThat(add(new ProbeText().exists("/usr/bin/mkinitcpio").file("/etc/mkinitcpio.conf", "HOOKS=(base)\n")
                .facts(), MODERN).edits()).singleElement()
                .satisfies(e -> assertThat(e.after()).isEqualTo("HOOKS=(base)\nMODULES=(vfio vfio_iommu_type1 vfio_pci)\n"));
    }
}
