package io.gpuforge.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.words.Words;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.diagnose.Evidence;
import io.gpuforge.domain.diagnose.Finding;
import io.gpuforge.domain.diagnose.FixPlan;
import io.gpuforge.domain.diagnose.LogInput;
import io.gpuforge.domain.diagnose.LogSource;
import io.gpuforge.domain.diagnose.Origin;
import io.gpuforge.testing.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Each cause from the logs that show it: the real cases, the written ones, several in one log, and none. */
class DiagnoserTest {

    /** The engine's words as the English window and command show them. */
    private static final Words EN = new Words(java.util.Locale.ENGLISH);

    static Diagnosis diagnose(String text) {
        return Diagnoser.diagnose(List.of(LogInput.of("pasted", text)), List.of());
    }

    static Stream<Map.Entry<String, String>> fixtures() throws Exception {
        return DiagnoseCases.fixtureCauses().entrySet().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void everyRealCaseGivesTheCauseItsReadmeNames(Map.Entry<String, String> c) throws Exception {
        Diagnosis d = diagnose(DiagnoseCases.fixture(c.getKey()));
        assertThat(d.cause()).as(c.getKey()).isEqualTo(c.getValue());
        assertThat(d.causes().get(0).evidence()).as("the lines that show it").isNotEmpty();
        assertThat(EN.text(d.causes().get(0).fix().text())).isNotBlank();
    }

    @Test
    void theFixturesCoverEightCauses() throws Exception {
        assertThat(DiagnoseCases.fixtureCauses()).hasSize(8);
    }

    @Test
    void theIgpuSlotConflictIsFixedByTurningTheEmulatedDisplayOff() throws Exception {
        Finding f = diagnose(DiagnoseCases.fixture("01-pve-igd-slot2-in-use-by-vga.txt")).causes().get(0);
        assertThat(f.evidence()).extracting(Evidence::text).allMatch(t -> t.contains("in use by VGA"));
        assertThat(f.fix().plan().orElseThrow().vmChanges()).extracting(FixPlan.VmEdit::snippet)
                .contains("vga: none");
    }

    @Test
    void aGroupThatIsNotViableNamesTheFunctionOnItsHostDriver() throws Exception {
        Finding f = diagnose(DiagnoseCases.fixture("04-kubevirt-libvirt-group-not-viable-audio-fn-on-host-driver.txt"))
                .causes().get(0);
        assertThat(EN.text(f.explanation())).contains("IOMMU group 1").contains("0000:01:00.1").contains("snd_hda_intel")
                .doesNotContain("0000:01:00.0 (");
        assertThat(f.fix().plan().orElseThrow().modprobe()).contains("softdep snd_hda_intel pre: vfio-pci");
        assertThat(f.evidence()).anyMatch(e -> e.text().contains("Kernel driver in use: snd_hda_intel"));
    }

    @Test
    void aBarHeldByTheFramebufferIsFixedOnTheKernelCommandLine() throws Exception {
        String text = DiagnoseCases.fixture("07-harvester-host-bar1-cant-reserve-efifb.txt");
        Finding f = diagnose(text).causes().get(0);
        assertThat(EN.text(f.explanation())).contains("0000:b3:00.0").contains("as the log shows");
        assertThat(f.fix().plan().orElseThrow().kernelArguments()).containsExactly("initcall_blacklist=sysfb_init");
        Evidence first = f.evidence().get(0);
        assertThat(first.text()).contains("BAR 1: can’t reserve");
        assertThat(text.lines().toList().get(first.line() - 1)).isEqualTo(first.text());
    }

    @Test
    void anOldKernelGetsEfifbOffAndTheBootGpuIsSaid() {
        Finding f = diagnose("""
                [    0.000000] Linux version 5.10.0-21-amd64 (debian-kernel@lists.debian.org)
                [    0.412000] pci 0000:01:00.0: vgaarb: setting as boot VGA device
                [   88.100100] vfio-pci 0000:01:00.0: BAR 3: can't reserve [mem 0xc0000000-0xc1ffffff 64bit pref]
                """).causes().get(0);
        assertThat(f.fix().plan().orElseThrow().kernelArguments()).containsExactly("video=efifb:off");
        assertThat(EN.text(f.explanation())).contains("boot GPU");
    }

    @Test
    void theResetBugNamesTheCardFamilyAndItsUdevRule() throws Exception {
        Finding f = diagnose(DiagnoseCases.fixture("09-pve-host-aer-cmpltto-polaris-reset-bug.txt")).causes().get(0);
        assertThat(EN.text(f.explanation())).contains("Polaris 10");
        assertThat(f.evidence()).extracting(Evidence::text).anyMatch(t -> t.contains("CmpltTO"))
                .anyMatch(t -> t.contains("not ready 1023ms afte"));
    }

    @Test
    void severalCausesAreRankedAndTheOthersKeptAsAlsoSeen() throws Exception {
        Diagnosis d = diagnose(DiagnoseCases.written("ranked-reset-then-power.txt"));
        assertThat(d.causes()).extracting(Finding::id).containsExactly("reset-bug", "power-state");
        assertThat(d.alsoSeen()).extracting(Finding::id).containsExactly("power-state");
        Finding reset = d.causes().get(0);
        assertThat(EN.text(reset.explanation())).contains("Polaris 10");
        assertThat(reset.fix().plan().orElseThrow().udevRules()).singleElement().asString()
                .contains("ATTR{device}==\"0x67df\"").contains("device_specific");

        Diagnosis guest = diagnose(DiagnoseCases.fixture("21-win-guest-code12-code10-tesla-m40-24gb-mmio.txt"));
        assertThat(guest.causes()).extracting(Finding::id).containsExactly("mmio-window-too-small", "guest-code-43");
        assertThat(guest.causes().get(0).fix().plan().orElseThrow().vmChanges()).extracting(
                FixPlan.VmEdit::snippet).contains("args: -fw_cfg opt/ovmf/X-PciMmio64Mb,string=65536");
    }

    @Test
    void eachFixCarriesThePlanItNames() throws Exception {
        FixPlan power = diagnose(DiagnoseCases.fixture("25-qemu-amd-gpu-stuck-in-d3-disable-idle-d3-fix.txt"))
                .causes().get(0).fix().plan().orElseThrow();
        assertThat(power.modprobe()).containsExactly("options vfio-pci disable_idle_d3=1");
        assertThat(diagnose(DiagnoseCases.fixture("16-qemu-igpu-no-iommu-group-iommu-disabled.txt")).causes().get(0)
                .fix().plan().orElseThrow().kernelArguments()).contains("intel_iommu=on", "iommu=pt");
        Finding mdev = diagnose(DiagnoseCases.fixture("17-pve-vgpu-mdev-group-io-error.txt")).causes().get(0);
        assertThat(EN.text(mdev.explanation())).contains("00000000-0000-0000-0000-000000000100");
        assertThat(EN.text(diagnose(DiagnoseCases.written("no-reset-mechanism.txt")).causes().get(0).fix().text()))
                .contains("0000:2d:00.2").contains("hostpci0: 0000:2d:00");
        assertThat(EN.text(diagnose(DiagnoseCases.written("vfio-device-busy.txt")).causes().get(0).fix().text()))
                .contains("fuser -v /dev/vfio/42");
        assertThat(diagnose(DiagnoseCases.written("hypervisor-visible-to-driver.txt")).causes().get(0).fix().plan()
                .orElseThrow().vmChanges()).extracting(FixPlan.VmEdit::snippet).contains("cpu: host,hidden=1");
    }

    @Test
    void theHarmlessRomLineIsNamedNotBlamed() throws Exception {
        Diagnosis d = diagnose(DiagnoseCases.written("dmar-fault.txt"));
        assertThat(d.causes()).extracting(Finding::id).containsExactly("dmar-fault");
        assertThat(EN.text(d.causes().get(0).explanation())).contains("harmless");
        assertThat(d.causes().get(0).evidence()).noneMatch(e -> e.text().contains("ROM header"));
    }

    @Test
    void aLaptopCode43PutsTheLaptopCauseFirstAndAnExitCodeIsNoDeviceManagerCode() throws Exception {
        Finding f = diagnose(DiagnoseCases.written("guest-code-43.txt")).causes().get(0);
        assertThat(EN.text(f.fix().text())).startsWith("Check, in this order: 1) a laptop's dGPU");
        assertThat(diagnose("TASK ERROR: start failed: QEMU exited with code 10\nqemu: exit code 12").cause())
                .isEqualTo("unknown");
    }

    @Test
    void theSameMessageIsFoundHoweverItWasPasted() {
        String canonical = "vfio 0000:01:00.0: group 1 is not viable";
        for (String pasted : List.of(
                "Dec 05 10:00:01 pve QEMU[2211]: kvm: -device vfio-pci,host=0000:01:00.0: " + canonical,
                "[ 1234.5678] VFIO 0000:01:00.0: GROUP 1 IS NOT VIABLE",
                "> `vfio 0000:01:00.0:   group 1  is not viable`",
                "```\n2021-11-02T02:15:38.830552Z qemu-kvm: " + canonical + "\\nPlease ensure all devices\n```",
                "“Please ensure all devices within the iommu_group are bound to their vfio bus driver.”",
                "qemu-kvm: vfio 0000:01:00.0: group 1 is not via")) {
            Diagnosis d = diagnose("I tried again and got this:\n" + pasted + "\nany idea?");
            assertThat(d.cause()).as(pasted).isEqualTo(pasted.endsWith("not via") ? "unknown" : "group-not-viable");
        }
    }

    @Test
    void otherWordingsOfTheSameCausesAreKnownToo() {
        Map<String, String> cases = Map.of(
                "error: unsupported configuration: host doesn't support passthrough of host PCI devices", "iommu-off",
                "kvm: -device vfio-pci,host=0000:01:00.0: vfio 0000:01:00.0: failed to setup container for group 13:"
                        + " No available IOMMU models", "iommu-off",
                "error: Requested operation is not valid: PCI device 0000:01:00.0 is in use by driver QEMU, domain"
                        + " win10", "vfio-device-busy",
                "[ 88.1] vfio-pci 0000:01:00.0: BAR 1 [mem 0x4000000000-0x47ffffffff 64bit pref]: can't reserve",
                "bar-reserved-by-framebuffer",
                "[ 901.5] vfio-pci 0000:09:00.0: vfio_bar_restore: reset recovery - restoring BARs", "reset-bug",
                "[ 12.0] vfio-pci 0000:09:00.0: Refused to change power state, currently in D3", "power-state",
                "qemu: hardware error: vfio: DMA mapping failed, unable to continue\nVFIO_MAP_DMA: -12", "dma-map-failed",
                "[ 5.1] NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x26:0xffff:1227)", "guest-code-43",
                "[ 5.1] NVRM: BAR1 is 0M @ 0x0 (PCI:0000:01:00.0)", "mmio-window-too-small",
                "internal error: Unknown PCI header type '127' for device '0000:01:00.0'", "power-state");
        cases.forEach((log, cause) -> assertThat(diagnose(log).cause()).as(log).isEqualTo(cause));
        Map<String, String> more = Map.of(
                "kvm: -device vfio-pci,host=0000:01:00.0: vfio 0000:01:00.0: failed to open /dev/vfio/1: No such file"
                        + " or directory", "group-not-viable",
                "qemu-system-x86_64: vfio: Cannot reset device 0000:01:00.1, depends on group 1 which is not owned.",
                "group-split",
                "[ 77.0] vfio-pci 0000:0b:00.0: Unable to change power state from D0 to D3hot, device inaccessible",
                "power-state",
                "qemu-system-x86_64: vfio_container_dma_map(0x5581c5d0, 0x380000000000, 0x10000000, 0x7f2ab0000000) = -12"
                        + " (Cannot allocate memory)", "dma-map-failed");
        more.forEach((log, cause) -> assertThat(diagnose(log).cause()).as(log).isEqualTo(cause));
    }

    @Test
    void aHealthyLogIsUnknownWithTheLinesThatLookedRelevant() throws Exception {
        for (String healthy : List.of("nvidia-smi/02-rtx4080super-linux-595.71.05.table.idle.txt",
                "config/01-ubuntu2204-z690-dmesg-dmar.txt", "config/02-void-z790-dmesg-vfio.txt",
                "config/13-pve-alderlake-no-iommu-cmdline-dmesg.txt")) {
            Diagnosis d = diagnose(new String(SharedFixtures.read(healthy), StandardCharsets.UTF_8));
            assertThat(d.cause()).as(healthy).isEqualTo("unknown");
            assertThat(d.reason().map(EN::text)).get().asString().contains("no known cause");
        }
        Diagnosis exit = diagnose(DiagnoseCases.written("unknown-qemu-exit-only.txt"));
        assertThat(exit.relevant()).extracting(Evidence::text).containsExactly(
                "TASK ERROR: start failed: QEMU exited with code 1");
        assertThat(exit.collected()).singleElement().satisfies(c -> assertThat(c.source()).isEqualTo(LogSource.TASK_LOG));
    }

    /**
     * A collecting script's comments describe the case ("# the card was stuck in D3") but are not the log: a log whose
     * only hint is in its comments is unknown, its comment lines still shown as context (issue 74).
     */
    @Test
    void commentsAreContextNotEvidence() {
        Diagnosis d = diagnose("""
                # collected by gpu-report.sh: the card was stuck in D3, unable to change power state from D3cold to D0
                ## vfio 0000:01:00.0: group 12 is not viable
                TASK ERROR: start failed: QEMU exited with code 1
                """);
        assertThat(d.cause()).isEqualTo("unknown");
        assertThat(d.relevant()).extracting(Evidence::text).anyMatch(t -> t.startsWith("# collected by"));
        assertThat(diagnose("# notes\nvfio 0000:01:00.0: group 12 is not viable\n").cause())
                .isEqualTo("group-not-viable");
    }

    /**
     * What a collecting tool or a person writes around a log (Markdown fences and quoted headings, banners, a prompt
     * with the grep typed after it) is context: a paste whose only hints are there is unknown, and those lines are
     * still shown; the log lines between them are evidence as before (issue 74).
     */
    @Test
    void fencesBannersAndPromptsAreContextNotEvidence() {
        Diagnosis d = diagnose("""
                ===== journalctl -k | grep -iE 'stuck in D3|not viable' =====
                root@pve:~# dmesg | grep -i "unable to change power state from D3cold to D0"
                [root@node1 ~]# grep 'group 12 is not viable' /var/log/libvirt/qemu/win11.log
                > ### BAR 0: can't reserve [mem 0xf0000000-0xf1ffffff 64bit]
                ```text
                ==> /var/log/pve/tasks/active <==
                --- vfio 0000:01:00.0: group 12 is not viable ---
                TASK ERROR: start failed: QEMU exited with code 1
                ```
                """);
        assertThat(d.cause()).isEqualTo("unknown");
        assertThat(d.relevant()).extracting(Evidence::text).anyMatch(t -> t.startsWith("root@pve:~# dmesg"));
        Diagnosis fenced = diagnose("""
                $ journalctl -b -k
                ```
                [   88.100] vfio-pci 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible
                ```
                """);
        assertThat(fenced.cause()).isEqualTo("power-state");
        assertThat(fenced.causes().get(0).evidence()).singleElement()
                .satisfies(e -> assertThat(e.line()).isEqualTo(3));
    }

    /**
     * A guest's kernel has no vfio, no host IOMMU and no host PCIe port: lines written through its agent (root in the
     * guest can write anything there) make no host cause; the same lines from the host still do (issue 74).
     */
    @Test
    void aGuestsLinesMakeNoHostCause() {
        String text = "[ 12.0] vfio-pci 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible";
        Diagnosis fromGuest = Diagnoser.diagnose(List.of(new LogInput("guest: dmesg", Optional.empty(), text,
                Origin.GUEST)), List.of());
        assertThat(fromGuest.cause()).isEqualTo("unknown");
        Diagnosis fromHost = Diagnoser.diagnose(List.of(new LogInput("host: dmesg", Optional.empty(), text,
                Origin.HOST)), List.of());
        assertThat(fromHost.cause()).isEqualTo("power-state");
        Diagnosis guestCode = Diagnoser.diagnose(List.of(new LogInput("guest: devices", Optional.empty(),
                "NVIDIA GeForce RTX 3090: This device cannot start. (Code 10)", Origin.GUEST)), List.of());
        assertThat(guestCode.cause()).isEqualTo("guest-code-43");
    }

    /**
     * The host's own NVIDIA driver failing on a card it cannot wake is the host's power state, not a guest's Code 43:
     * a host kernel log's NVRM line makes no guest cause; the same line in a guest's words still does (issue 74).
     */
    @Test
    void theHostsOwnDriverLineMakesNoGuestCause() {
        Diagnosis host = diagnose("""
                [  100.100] vfio-pci 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible
                [  100.200] NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0x56:667)
                [  100.300] NVRM: GPU 0000:01:00.0: rm_init_adapter failed, device minor number 0
                """);
        assertThat(host.causes()).extracting(Finding::id).containsExactly("power-state");
        Diagnosis guest = diagnose("""
                In the Ubuntu guest nvidia-smi says No devices were found, and dmesg in the VM shows:
                [   12.100] NVRM: GPU 0000:06:10.0: RmInitAdapter failed! (0x22:0x56:667)
                """);
        assertThat(guest.cause()).isEqualTo("guest-code-43");
    }

    @Test
    void anEmptyLogSaysSo() {
        Diagnosis d = diagnose("\n\n  \n");
        assertThat(d.cause()).isEqualTo("unknown");
        assertThat(d.reason().map(EN::text)).contains("the log is empty");
    }

    @Test
    void whereALogCameFromIsGuessedFromItsLines() throws Exception {
        assertThat(source(DiagnoseCases.fixture("17-pve-vgpu-mdev-group-io-error.txt"))).isEqualTo(LogSource.TASK_LOG);
        assertThat(source(DiagnoseCases.written("ranked-reset-then-power.txt"))).isEqualTo(LogSource.KERNEL_LOG);
        assertThat(source(DiagnoseCases.written("dmar-fault.txt"))).isEqualTo(LogSource.KERNEL_LOG);
        assertThat(source(DiagnoseCases.written("group-split.txt"))).isEqualTo(LogSource.QEMU_LOG);
        assertThat(source(DiagnoseCases.written("hypervisor-visible-to-driver.txt"))).isEqualTo(LogSource.GUEST);
        assertThat(source(DiagnoseCases.fixture("21-win-guest-code12-code10-tesla-m40-24gb-mmio.txt")))
                .isEqualTo(LogSource.GUEST);
        assertThat(source(DiagnoseCases.fixture("07-harvester-host-bar1-cant-reserve-efifb.txt")))
                .as("prose around three kernel lines").isEqualTo(LogSource.PASTED);
    }

    private static LogSource source(String text) {
        return diagnose(text).collected().get(0).source();
    }
}
