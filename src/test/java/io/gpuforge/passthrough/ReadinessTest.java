package io.gpuforge.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.pci.ListingReport;
import io.gpuforge.app.passthrough.CheckMessages;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.passthrough.ReadinessReport;
import io.gpuforge.domain.passthrough.PassthroughOverrides;
import io.gpuforge.domain.passthrough.Coverage;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciInventory;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.listing.ListingParser;
import io.gpuforge.hypervisor.libvirt.NodeDeviceXml;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SharedFixtures;
import io.gpuforge.testing.SysrootBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each check asked "what if this fact is absent?": from a listing, a sysroot whose attributes could not be
 * read, an older kernel, a libvirt node device. A missing fact is UNKNOWN, never PASS, and an unknown that
 * matters for the setup keeps the verdict from "ready".
 */
class ReadinessTest {

    private static final CheckMessages EN = new CheckMessages(Locale.ENGLISH);
    private static final CheckMessages ZH = new CheckMessages(Locale.SIMPLIFIED_CHINESE);

    private static String fixture(String name) throws Exception {
        return new String(SharedFixtures.read("hosts/" + name), StandardCharsets.UTF_8);
    }

    private static HostFacts listing(String text) throws Exception {
        return HostFacts.fromListing("listing:test", ListingParser.parse(text));
    }

    private static ReadinessReport evaluate(HostFacts f, String device) {
        return Readiness.evaluate(f, Optional.of(PciAddress.parse(device)), PassthroughOverrides.none());
    }

    private static Check check(ReadinessReport r, String id) {
        return r.check(id).orElseThrow(() -> new AssertionError("no check " + id + " in " + r.checks()));
    }

    private static HostFacts probe(Path root) throws Exception {
        return new HostProbe().probeLocal(Optional.of(root));
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"01-intel-z790-rtx4070-rx590.txt, 0000:01:00.0", "01-intel-z790-rtx4070-rx590.txt, 0000:04:00.0",
                "03-intel-z690-rx6650xt.txt, 0000:03:00.0", "07-intel-z370-gt1030.txt, 0000:01:00.0",
                "09-amd-x570-gtx1070-hd7750.txt, 0000:09:00.0", "09-amd-x570-gtx1070-hd7750.txt, 0000:0a:00.0"})
    void aListingHoldsNoBarSizesOrPowerStates(String file, String device) throws Exception {
        ReadinessReport r = evaluate(listing(fixture(file)), device);
        assertThat(check(r, "bar.large").status()).isEqualTo(Check.Status.UNKNOWN);
        assertThat(check(r, "power.d3cold").status()).isEqualTo(Check.Status.UNKNOWN);
        assertThat(EN.message(check(r, "bar.large"))).contains("unknown");
        assertThat(EN.message(check(r, "power.d3cold"))).contains(device).contains("unknown");
        assertThat(EN.fix(check(r, "bar.large")).orElseThrow()).contains("lspci -vv -s " + device);
    }

    @Test
    void theFirmwareFromAListingIsInferredFromThePopulatedGroups() throws Exception {
        ReadinessReport r = Readiness.evaluate(listing(fixture("01-intel-z790-rtx4070-rx590.txt")), Optional.empty(),
                PassthroughOverrides.none());
        Check fw = check(r, "iommu.firmware");
        assertThat(fw.status()).isEqualTo(Check.Status.PASS);
        assertThat(fw.key()).isEqualTo("check.firmware.inferred");
        assertThat(EN.message(fw)).contains("inferred from the 14 populated IOMMU groups");
        assertThat(ZH.message(fw)).contains("14").isNotEqualTo(EN.message(fw));
    }

    @Test
    void sysfsWithTheTablesReadStillSaysTheTablesAreThere(@TempDir Path dir) throws Exception {
        Check fw = check(evaluate(probe(HostTrees.intelGrub(dir)), "0000:01:00.0"), "iommu.firmware");
        assertThat(fw.key()).isEqualTo("check.firmware.pass");
    }

    @Test
    void barsAndPowerStateThatCouldNotBeReadAreUnknown(@TempDir Path dir) throws Exception {
        Path full = HostTrees.intelGrub(dir.resolve("full"));
        ReadinessReport read = evaluate(probe(full), "0000:01:00.0");
        assertThat(check(read, "bar.large").status()).as("16 MiB BAR read from sysfs").isEqualTo(Check.Status.PASS);
        assertThat(check(read, "power.d3cold").status()).isEqualTo(Check.Status.PASS);

        Path root = HostTrees.intelGrub(dir.resolve("unreadable"));
        Path gpu = root.resolve("sys/devices/pci0000:00/0000:01:00.0");
        Files.delete(gpu.resolve("resource"));
        Files.delete(gpu.resolve("power_state"));
        ReadinessReport r = evaluate(probe(root), "0000:01:00.0");
        assertThat(check(r, "bar.large").status()).isEqualTo(Check.Status.UNKNOWN);
        assertThat(check(r, "power.d3cold").status()).isEqualTo(Check.Status.UNKNOWN);
    }

    @Test
    void resetMethodsAreUnknownWhereTheKernelDoesNotListThem(@TempDir Path dir) throws Exception {
        Path newer = HostTrees.intelGrub(dir.resolve("5.19"));
        Files.delete(newer.resolve("sys/devices/pci0000:00/0000:01:00.0/reset_method"));
        Check none = check(evaluate(probe(newer), "0000:01:00.0"), "reset.support");
        assertThat(none.status()).as("since 5.15 the attribute is absent when there is no reset method")
                .isEqualTo(Check.Status.WARN);
        assertThat(none.key()).isEqualTo("check.reset.none");

        Path older = HostTrees.intelGrub(dir.resolve("5.10"));
        Files.writeString(older.resolve("proc/sys/kernel/osrelease"), "5.10.0-21-amd64\n");
        Files.delete(older.resolve("sys/devices/pci0000:00/0000:01:00.0/reset_method"));
        Check unknown = check(evaluate(probe(older), "0000:01:00.0"), "reset.support");
        assertThat(unknown.status()).as("5.10 has no reset_method attribute at all").isEqualTo(Check.Status.UNKNOWN);
    }

    @Test
    void aLibvirtNodeDeviceSaysNothingOfResetBarsOrPower() throws Exception {
        String xml = new String(SharedFixtures.read("libvirt/04-rtx3060lhr-nodedev-pci_0000_01_00_0.xml"),
                StandardCharsets.UTF_8);
        NodeDeviceXml.Parsed parsed = NodeDeviceXml.parse(xml).orElseThrow();
        HostFacts f = HostFacts.fromListing("libvirt:test", PciInventory.fromDevices(List.of(parsed.device())));
        ReadinessReport r = evaluate(f, parsed.device().address().toString());
        assertThat(check(r, "reset.support").status()).isEqualTo(Check.Status.UNKNOWN);
        assertThat(check(r, "bar.large").status()).isEqualTo(Check.Status.UNKNOWN);
        assertThat(check(r, "power.d3cold").status()).isEqualTo(Check.Status.UNKNOWN);
    }

    @Test
    void aCommandLineThatWasNotReadLeavesTheAcsOverrideUnknown(@TempDir Path dir) throws Exception {
        ReadinessReport fromListing = evaluate(listing(fixture("07-intel-z370-gt1030.txt")), "0000:01:00.0");
        assertThat(check(fromListing, "acs.override").status()).isEqualTo(Check.Status.UNKNOWN);
        assertThat(EN.message(check(fromListing, "acs.override"))).contains("command line was not read");
        ReadinessReport fromHost = evaluate(probe(HostTrees.intelGrub(dir)), "0000:01:00.0");
        assertThat(check(fromHost, "acs.override").status()).isEqualTo(Check.Status.PASS);
    }

    @Test
    void theBindingIsUnknownWhileAnyFunctionsDriverIsUnknown() throws Exception {
        // lspci -nnk of the GPU function only: its audio function's driver is not in the post
        String text = fixture("01-intel-z790-rtx4070-rx590.txt")
                + "01:00.0 VGA compatible controller [0300]: NVIDIA Corporation AD104 [GeForce RTX 4070] [10de:2786] (rev a1)\n"
                + "\tKernel driver in use: vfio-pci\n\tKernel modules: nouveau\n";
        ReadinessReport r = evaluate(listing(text), "0000:01:00.0");
        Check binding = check(r, "driver.binding");
        assertThat(binding.status()).isEqualTo(Check.Status.UNKNOWN);
        assertThat(EN.message(binding)).contains("0000:01:00.1");
        assertThat(r.verdict().orElseThrow().kind()).isEqualTo(Verdict.Kind.NEEDS_HOST_SETUP);
        assertThat(r.verdict().orElseThrow().because()).contains("driver.binding");
    }

    @Test
    void theHostCriticalCheckRulesOutWhatAListedGroupCannotHold() throws Exception {
        String rx = fixture("03-intel-z690-rx6650xt.txt") + fixture("03-intel-z690-rx6650xt.lspci-nnk.txt");
        Check onVfio = check(evaluate(listing(rx), "0000:03:00.0"), "group.host-critical");
        assertThat(onVfio.status()).as("group 19: the card alone, bound to vfio-pci").isEqualTo(Check.Status.PASS);

        Check noDriver = check(evaluate(listing(fixture("01-intel-z790-rtx4070-rx590.txt")), "0000:01:00.0"),
                "group.host-critical");
        assertThat(noDriver.status()).isEqualTo(Check.Status.UNKNOWN);
        assertThat(EN.message(noDriver)).contains("no network or storage controller").contains("console");

        String shared = "IOMMU Group 5:\n\t2b:00.0 VGA compatible controller [0300]: NVIDIA GA102 [10de:2204]\n"
                + "\t2b:00.1 Audio device [0403]: NVIDIA GA102 Audio [10de:1aef]\n\t2c:00.0 USB controller [0c03]: X [1b21:2142]\n";
        Check usb = check(evaluate(listing(shared), "0000:2b:00.0"), "group.host-critical");
        assertThat(usb.status()).isEqualTo(Check.Status.UNKNOWN);
        assertThat(usb.key()).isEqualTo("check.critical.unknown");
    }

    @Test
    void unknownsThatMatterKeepTheVerdictFromReady(@TempDir Path dir) throws Exception {
        // a shared group passed whole, every function on vfio-pci: but whether the USB controller carries the
        // host's root disk or network is unknown from a listing
        String shared = "IOMMU Group 5:\n\t2b:00.0 VGA compatible controller [0300]: NVIDIA GA102 [10de:2204]\n"
                + "\t2b:00.1 Audio device [0403]: NVIDIA GA102 Audio [10de:1aef]\n\t2c:00.0 USB controller [0c03]: X [1b21:2142]\n"
                + "2b:00.0 VGA compatible controller [0300]: NVIDIA GA102 [10de:2204]\n\tKernel driver in use: vfio-pci\n"
                + "2b:00.1 Audio device [0403]: NVIDIA GA102 Audio [10de:1aef]\n\tKernel driver in use: vfio-pci\n"
                + "2c:00.0 USB controller [0c03]: X [1b21:2142]\n\tKernel driver in use: vfio-pci\n";
        ReadinessReport r = Readiness.evaluate(listing(shared), Optional.of(PciAddress.parse("0000:2b:00.0")),
                new PassthroughOverrides(true, false));
        assertThat(check(r, "group.isolation").status()).isEqualTo(Check.Status.WARN);
        assertThat(r.verdict().orElseThrow().kind()).isEqualTo(Verdict.Kind.NEEDS_HOST_SETUP);
        assertThat(r.verdict().orElseThrow().because()).containsExactly("group.host-critical");

        // SSH without root: the ACPI tables were not readable and the IOMMU is off
        Path root = HostTrees.amdFirmwareOff(dir.resolve("noroot"));
        Files.delete(root.resolve("sys/firmware/acpi/tables"));
        ReadinessReport noTables = evaluate(probe(root), "0000:09:00.0");
        assertThat(check(noTables, "iommu.firmware").status()).isEqualTo(Check.Status.UNKNOWN);
        assertThat(EN.fix(check(noTables, "iommu.firmware")).orElseThrow()).contains("as root");
        assertThat(noTables.verdict().orElseThrow().kind()).isEqualTo(Verdict.Kind.NEEDS_HOST_SETUP);
        assertThat(noTables.verdict().orElseThrow().because()).contains("iommu.firmware");
    }

    @Test
    void withTheIommuOffInTheKernelTheGroupIsUnknownAndTheHostNeedsSetupNotBlocked(@TempDir Path dir) throws Exception {
        // VT-d on in the firmware (DMAR table), intel_iommu=on never put on the command line: no groups yet
        Path root = new SysrootBuilder(dir)
                .linux("pve-adl", "Debian GNU/Linux 12 (bookworm)", "6.8.12-4-pve", "GenuineIntel",
                        "12th Gen Intel(R) Core(TM) i5-12600K", "BOOT_IMAGE=/boot/vmlinuz-6.8.12-4-pve root=/dev/mapper/pve-root ro quiet")
                .acpi(true, false).uefi().dir("sys/kernel/iommu_groups")
                .pci("0000:00:00.0", "8086", "4650", "060000", -1, null, 0x1000)
                .pci("0000:01:00.0", "10de", "2786", "030000", -1, "nvidia", 16L << 20)
                .pci("0000:01:00.1", "10de", "22bc", "040300", -1, "snd_hda_intel", 0x4000)
                .root();
        ReadinessReport r = evaluate(probe(root), "0000:01:00.0");
        assertThat(check(r, "iommu.firmware").status()).isEqualTo(Check.Status.PASS);
        assertThat(check(r, "iommu.kernel").status()).isEqualTo(Check.Status.FAIL);
        assertThat(check(r, "group.isolation").status()).isEqualTo(Check.Status.UNKNOWN);
        assertThat(EN.message(check(r, "group.isolation"))).contains("the IOMMU is off");
        assertThat(r.verdict().orElseThrow().kind()).isEqualTo(Verdict.Kind.NEEDS_HOST_SETUP);
        assertThat(r.verdict().orElseThrow().because()).contains("iommu.kernel", "group.isolation");

        // the same host whose only GPU shows the console: still blocked, for that reason, before any group exists
        new SysrootBuilder(root).attr("0000:01:00.0", "boot_vga", "1");
        ReadinessReport console = evaluate(probe(root), "0000:01:00.0");
        assertThat(check(console, "group.host-critical").status()).isEqualTo(Check.Status.FAIL);
        assertThat(EN.message(check(console, "group.host-critical"))).contains("boot console GPU 0000:01:00.0");
        assertThat(console.verdict().orElseThrow().kind()).isEqualTo(Verdict.Kind.BLOCKED);
        assertThat(console.verdict().orElseThrow().because()).containsExactly("group.host-critical");
    }

    @Test
    void aCardAlreadyOnVfioInItsOwnGroupStaysReady() throws Exception {
        String rx = fixture("03-intel-z690-rx6650xt.txt") + fixture("03-intel-z690-rx6650xt.lspci-nnk.txt");
        ReadinessReport r = evaluate(listing(rx), "0000:03:00.0");
        assertThat(r.verdict().orElseThrow().kind()).isEqualTo(Verdict.Kind.READY);
        assertThat(check(r, "modules.vfio").key()).as("known only from the driver in use").isEqualTo("check.modules.inferred");
        assertThat(EN.message(check(r, "modules.vfio"))).contains("0000:03:00.0");
    }

    @Test
    void whatAPartialListingLeavesOutIsUnknownNotFailedOrPassed() throws Exception {
        // group 11 (the RTX 4070) is followed by a cut: more devices may be in it
        String cut = fixture("01-intel-z790-rtx4070-rx590.txt").replace("IOMMU Group 12:\n", "...\nIOMMU Group 12:\n");
        ListingReport parsed = ListingParser.read(cut);
        HostFacts f = HostFacts.fromListing("listing:cut", parsed.inventory());
        Coverage c = Coverage.listing(parsed.partial(), parsed.groupsNotFullyShown());
        ReadinessReport rtx = Readiness.evaluate(f, Optional.of(PciAddress.parse("0000:01:00.0")),
                PassthroughOverrides.none(), c);
        assertThat(check(rtx, "group.isolation").status()).isEqualTo(Check.Status.UNKNOWN);
        assertThat(EN.message(check(rtx, "group.isolation"))).contains("group 11").contains("as far as the listing shows");
        assertThat(rtx.verdict().orElseThrow().because()).contains("group.isolation");
        assertThat(rtx.verdict().orElseThrow().kind()).isEqualTo(Verdict.Kind.NEEDS_HOST_SETUP);

        ReadinessReport rx590 = Readiness.evaluate(f, Optional.of(PciAddress.parse("0000:04:00.0")),
                PassthroughOverrides.none(), c);
        assertThat(check(rx590, "group.isolation").status()).as("group 13 is whole").isEqualTo(Check.Status.PASS);

        ReadinessReport absent = Readiness.evaluate(f, Optional.of(PciAddress.parse("0000:07:00.0")),
                PassthroughOverrides.none(), c);
        assertThat(check(absent, "group.isolation").status()).isEqualTo(Check.Status.UNKNOWN);
        assertThat(check(absent, "group.isolation").key()).isEqualTo("check.device.notshown");
        ReadinessReport absentWhole = Readiness.evaluate(f, Optional.of(PciAddress.parse("0000:07:00.0")),
                PassthroughOverrides.none(), Coverage.wholeHost());
        assertThat(absentWhole.verdict().orElseThrow().kind()).isEqualTo(Verdict.Kind.BLOCKED);

        // the HD 7750's header was cut: it is in no group the listing shows
        String noHeader = fixture("09-amd-x570-gtx1070-hd7750.txt").replace("IOMMU Group 25:\n", "...\n");
        ListingReport p9 = ListingParser.read(noHeader);
        ReadinessReport hd = Readiness.evaluate(HostFacts.fromListing("listing:9", p9.inventory()),
                Optional.of(PciAddress.parse("0000:0a:00.0")), PassthroughOverrides.none(),
                Coverage.listing(p9.partial(), p9.groupsNotFullyShown()));
        assertThat(check(hd, "group.isolation").status()).isEqualTo(Check.Status.UNKNOWN);
        assertThat(check(hd, "group.isolation").key()).isEqualTo("check.isolation.notshown");
    }
}
