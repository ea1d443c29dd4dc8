package io.gpuforge.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.host.ProbeText;
import java.util.List;
import org.junit.jupiter.api.Test;

/** vfio-pci by ids or by address, softdeps for the host drivers, the optional blacklist, and earlier plans. */
class VfioBindingTest {

    private static final String RTX4070 = "0000:01:00.0";
    private static final String RTX4070_AUDIO = "0000:01:00.1";

    private static ProbeText rtx4070() {
        return new ProbeText().gpu(RTX4070, "10de", "2786", "030000", 11, "nvidia")
                .gpu(RTX4070_AUDIO, "10de", "22bc", "040300", 11, "snd_hda_intel")
                .gpu("0000:04:00.0", "1002", "67df", "030000", 13, "amdgpu");
    }

    private static List<PciDevice> card(HostFacts f, String slot) {
        return f.pci().devices().stream().filter(d -> d.address().slotAddress().equals(slot)).toList();
    }

    private static PlanPart bind(HostFacts f, String slot, boolean blacklist) {
        List<PciDevice> functions = card(f, slot);
        return VfioBinding.forFunctions(f, functions).bind(f, functions, blacklist);
    }

    private static String file(PlanPart p, String path) {
        return p.edits().stream().filter(e -> e.path().equals(path)).findFirst()
                .orElseThrow(() -> new AssertionError("no edit of " + path + " in " + p.edits())).after();
    }

    @Test
    void aCardOfItsOwnKindIsBoundByIdsWithSoftdeps() throws Exception {
        PlanPart p = bind(rtx4070().facts(), "0000:01:00", false);
        assertThat(p.edits()).extracting(PassthroughPlan.FileEdit::path).containsExactly(Planner.MODPROBE_FILE);
        assertThat(file(p, Planner.MODPROBE_FILE)).isEqualTo("# Written by GPUForge for passthrough of 0000:01:00.0:"
                + " vfio-pci claims the card before its host drivers.\n"
                + "options vfio-pci ids=10de:22bc,10de:2786\n"
                + "softdep nvidia pre: vfio-pci\n"
                + "softdep snd_hda_intel pre: vfio-pci\n");
        assertThat(io.gpuforge.testing.English.english(p.notes())).isEmpty();
    }

    @Test
    void theBlacklistIsOnlyWrittenWhenAsked() throws Exception {
        assertThat(file(bind(rtx4070().facts(), "0000:01:00", true), Planner.MODPROBE_FILE))
                .endsWith("softdep snd_hda_intel pre: vfio-pci\nblacklist nvidia\nblacklist snd_hda_intel\n");
    }

    @Test
    void sysfsDriverNamesBecomeModuleNames() throws Exception {
        // a Turing card: VGA, audio, USB-C (xhci_hcd is xhci_pci's driver) and UCSI (nvidia-gpu is i2c_nvidia_gpu's)
        HostFacts f = new ProbeText().gpu("0000:0a:00.0", "10de", "1e87", "030000", 20, "nouveau")
                .gpu("0000:0a:00.1", "10de", "10f8", "040300", 20, "snd_hda_intel")
                .gpu("0000:0a:00.2", "10de", "1ad8", "0c0330", 20, "xhci_hcd")
                .gpu("0000:0a:00.3", "10de", "1ad9", "0c8000", 20, "nvidia-gpu").facts();
        assertThat(file(bind(f, "0000:0a:00", false), Planner.MODPROBE_FILE))
                .contains("softdep i2c_nvidia_gpu pre: vfio-pci\n").contains("softdep nouveau pre: vfio-pci\n")
                .contains("softdep xhci_pci pre: vfio-pci\n").doesNotContain("xhci_hcd").doesNotContain("nvidia-gpu")
                .contains("ids=10de:10f8,10de:1ad8,10de:1ad9,10de:1e87\n");
    }

    @Test
    void anEarlierPlanForAnotherCardIsKeptAndItsIdsJoined() throws Exception {
        String earlier = "# Written by GPUForge for passthrough of 0000:04:00.0: vfio-pci claims the card before its host"
                + " drivers.\noptions vfio-pci ids=1002:67df,1002:aaf0\nsoftdep amdgpu pre: vfio-pci\n";
        HostFacts f = rtx4070().file(Planner.MODPROBE_FILE, earlier).facts();
        PlanPart p = bind(f, "0000:01:00", false);
        assertThat(p.edits()).singleElement().satisfies(e -> assertThat(e.before()).contains(earlier));
        assertThat(file(p, Planner.MODPROBE_FILE)).isEqualTo("# Written by GPUForge for passthrough of 0000:04:00.0:"
                + " vfio-pci claims the card before its host drivers.\n"
                + "options vfio-pci ids=1002:67df,1002:aaf0,10de:22bc,10de:2786\n"
                + "softdep nvidia pre: vfio-pci\n"
                + "softdep snd_hda_intel pre: vfio-pci\n"
                + "softdep amdgpu pre: vfio-pci\n");
    }

    @Test
    void planningAgainWhatIsAppliedChangesNothing() throws Exception {
        String applied = file(bind(rtx4070().facts(), "0000:01:00", false), Planner.MODPROBE_FILE);
        assertThat(bind(rtx4070().file(Planner.MODPROBE_FILE, applied).facts(), "0000:01:00", false).edits()).isEmpty();
    }

    @Test
    void anIdenticalCardStayingWithTheHostMeansBindingByAddress() throws Exception {
        HostFacts f = new ProbeText().gpu("0000:01:00.0", "10de", "2204", "030000", 14, "nvidia")
                .gpu("0000:01:00.1", "10de", "1aef", "040300", 14, "snd_hda_intel")
                .gpu("0000:0b:00.0", "10de", "2204", "030000", 27, "nvidia")
                .gpu("0000:0b:00.1", "10de", "1aef", "040300", 27, "snd_hda_intel").facts();
        PlanPart p = bind(f, "0000:0b:00", false);
        assertThat(p.edits()).extracting(PassthroughPlan.FileEdit::path).containsExactly(Planner.MODPROBE_FILE,
                Planner.UDEV_FILE);
        assertThat(file(p, Planner.MODPROBE_FILE)).as("ids= would take the host's card too").doesNotContain("ids=")
                .contains("softdep nvidia pre: vfio-pci");
        assertThat(file(p, Planner.UDEV_FILE)).isEqualTo("# Written by GPUForge: these functions go to vfio-pci,"
                + " identical cards elsewhere stay with the host.\n"
                + "ACTION==\"add\", SUBSYSTEM==\"pci\", KERNEL==\"0000:0b:00.0\", ATTR{driver_override}=\"vfio-pci\"\n"
                + "ACTION==\"add\", SUBSYSTEM==\"pci\", KERNEL==\"0000:0b:00.1\", ATTR{driver_override}=\"vfio-pci\"\n");
        assertThat(io.gpuforge.testing.English.english(p.notes())).singleElement().satisfies(n -> assertThat(n).contains("identical card").contains("udev"));
    }

    @Test
    void byAddressOnFunctionsAlreadyOnVfioWritesOnlyTheRule() throws Exception {
        HostFacts f = new ProbeText().gpu("0000:81:00.0", "10de", "2204", "030000", 40, "vfio-pci")
                .gpu("0000:81:00.1", "10de", "1aef", "040300", 40, "vfio-pci")
                .gpu("0000:82:00.0", "10de", "2204", "030000", 41, "vfio-pci").facts();
        PlanPart p = bind(f, "0000:81:00", false);
        assertThat(p.edits()).extracting(PassthroughPlan.FileEdit::path).containsExactly(Planner.UDEV_FILE);
        assertThat(file(p, Planner.UDEV_FILE)).contains("0000:81:00.1").doesNotContain("0000:82:00.0");
        HostFacts applied = new ProbeText().gpu("0000:81:00.0", "10de", "2204", "030000", 40, "vfio-pci")
                .gpu("0000:81:00.1", "10de", "1aef", "040300", 40, "vfio-pci")
                .gpu("0000:82:00.0", "10de", "2204", "030000", 41, "vfio-pci")
                .file(Planner.UDEV_FILE, file(p, Planner.UDEV_FILE)).facts();
        assertThat(bind(applied, "0000:81:00", false).edits()).isEmpty();
    }

    @Test
    void onlyAnotherFunctionWithTheSameIdsForcesBindingByAddress() throws Exception {
        HostFacts f = rtx4070().facts();
        List<PciDevice> functions = card(f, "0000:01:00");
        assertThat(VfioBinding.forFunctions(f, functions)).isInstanceOf(BindByIds.class);
        assertThat(VfioBinding.ids(functions)).containsExactly("10de:22bc", "10de:2786");
        assertThat(functions).extracting(PciDevice::address)
                .containsExactly(PciAddress.parse(RTX4070), PciAddress.parse(RTX4070_AUDIO));
    }
}
