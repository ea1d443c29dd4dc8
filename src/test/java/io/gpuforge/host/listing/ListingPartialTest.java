package io.gpuforge.host.listing;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.pci.ListingReport;
import io.gpuforge.domain.pci.GpuPlacement;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Listings that posters cut ({@code ...} where lines were left out, a group header with nothing under it,
 * a last line cut off): what they show is analysed, and the result says that and where it is partial,
 * and which groups may hold more than is shown.
 */
class ListingPartialTest {

    private static PciAddress a(String s) {
        return PciAddress.parse(s);
    }

    /** The fixture with its lines {@code from..to} (1-based, inclusive) replaced by one line. */
    private static String cut(String file, int from, int to, String marker) throws Exception {
        List<String> l = new ArrayList<>(ListingNoiseTest.lines(ListingNoiseTest.fixture(file)));
        for (int i = to; i >= from; i--) {
            l.remove(i - 1);
        }
        l.add(from - 1, marker);
        return String.join("\n", l) + "\n";
    }

    @ParameterizedTest
    @ValueSource(strings = {"...", "…", "\t...", "[...]", "(...)", "<snip>", "[snip]", "--- snip ---", "-- cut --",
                            "... (more devices) ...", "…and so on", "(rest omitted)", ". . ."})
    void linesLeftOutInsideAGroup(String marker) throws Exception {
        // 01: group 10 holds 00:1f.0, .3, .4, .5 on lines 23-26; the poster left out .4 and .5
        ListingReport r = ListingParser.read(cut("01-intel-z790-rtx4070-rx590.txt", 25, 26, marker));
        assertThat(r.partial()).isTrue();
        assertThat(r.gaps()).singleElement().satisfies(g -> {
            assertThat(g.line()).isEqualTo(25);
            assertThat(g.reason()).contains("left out");
        });
        assertThat(r.groupsNotFullyShown()).containsExactly(10);
        assertThat(r.inventory().group(10).orElseThrow().members()).containsExactly(a("00:1f.0"), a("00:1f.3"));
        assertThat(r.inventory().gpus()).extracting(GpuPlacement::address).containsExactly(a("01:00.0"), a("04:00.0"));
        assertThat(r.skipped()).isEmpty();
    }

    @Test
    void aCutThatTakesAGroupHeaderLeavesTheDevicesAfterItWithoutAGroup() throws Exception {
        // 09: line 50 is 09:00.1 (group 24), line 51 the header of group 25 with the HD 7750 under it
        ListingReport r = ListingParser.read(cut("09-amd-x570-gtx1070-hd7750.txt", 50, 51, "..."));
        assertThat(r.partial()).isTrue();
        assertThat(r.groupsNotFullyShown()).containsExactly(24);
        assertThat(r.inventory().group(24).orElseThrow().members()).containsExactly(a("09:00.0"));
        PciDevice hd7750 = r.inventory().device(a("0a:00.0")).orElseThrow();
        assertThat(hd7750.iommuGroup()).as("its header was cut: its group is not known").isEmpty();
        assertThat(hd7750.classCode()).isEqualTo("0300");
        assertThat(r.inventory().group(25)).isEmpty();
        assertThat(r.inventory().group(26).orElseThrow().members()).containsExactly(a("0b:00.0"));
    }

    @Test
    void aGroupHeaderWithNoDevicesAtTheEnd() throws Exception {
        String clean = ListingNoiseTest.fixture("01-intel-z790-rtx4070-rx590.txt");
        ListingReport r = ListingParser.read(clean + "IOMMU Group 14:\n");
        assertThat(r.partial()).isTrue();
        assertThat(r.gaps()).singleElement().satisfies(g -> {
            assertThat(g.line()).isEqualTo(35);
            assertThat(g.reason()).contains("group 14").contains("no device");
        });
        assertThat(r.groupsNotFullyShown()).containsExactly(14);
        assertThat(r.inventory()).isEqualTo(ListingParser.read(clean).inventory());
    }

    @Test
    void aGroupHeaderWithNoDevicesInTheMiddle() throws Exception {
        // group 11's two devices (lines 28-29) left out without a marker
        List<String> l = new ArrayList<>(ListingNoiseTest.lines(ListingNoiseTest.fixture("01-intel-z790-rtx4070-rx590.txt")));
        l.remove(28);
        l.remove(27);
        ListingReport r = ListingParser.read(String.join("\n", l));
        assertThat(r.gaps()).singleElement().satisfies(g -> assertThat(g.reason()).contains("group 11"));
        assertThat(r.inventory().device(a("01:00.0"))).isEmpty();
        assertThat(r.inventory().gpus()).extracting(GpuPlacement::address).containsExactly(a("04:00.0"));
    }

    @Test
    void aLastLineCutOffKeepsWhatItShows() throws Exception {
        String text = ListingNoiseTest.fixture("01-intel-z790-rtx4070-rx590.txt").strip();
        String cutOff = text.substring(0, text.lastIndexOf("[Radeon RX 470/480 /") + 10);
        ListingReport r = ListingParser.read(cutOff);
        assertThat(r.partial()).isTrue();
        assertThat(r.gaps()).singleElement().satisfies(g -> {
            assertThat(g.line()).isEqualTo(34);
            assertThat(g.reason()).contains("cut off");
        });
        PciDevice audio = r.inventory().device(a("04:00.1")).orElseThrow();
        assertThat(audio.classCode()).isEqualTo("0403");
        assertThat(audio.iommuGroup()).hasValue(13);
        assertThat(r.groupsNotFullyShown()).as("the listing may go on after the cut").containsExactly(13);
    }

    @Test
    void aLineCutOffInTheMiddleIsNotedButItsGroupIsComplete() throws Exception {
        String text = ListingNoiseTest.fixture("01-intel-z790-rtx4070-rx590.txt")
                .replace("[GeForce RTX 4070] [10de:2786] (rev a1)", "[GeForce RTX 40");
        ListingReport r = ListingParser.read(text);
        assertThat(r.gaps()).singleElement().satisfies(g -> assertThat(g.line()).isEqualTo(28));
        assertThat(r.groupsNotFullyShown()).isEmpty();
        PciDevice rtx = r.inventory().device(a("01:00.0")).orElseThrow();
        assertThat(rtx.classCode()).isEqualTo("0300");
        assertThat(rtx.vendorId()).as("the ids were cut").isNull();
        assertThat(r.inventory().gpus()).extracting(GpuPlacement::address).contains(a("01:00.0"));
    }

    @Test
    void oneLineListingCutBetweenGroups() throws Exception {
        // 07: lines 4-5 are group 10's 00:1f.3 and 00:1f.4, line 6 is group 11
        ListingReport r = ListingParser.read(cut("07-intel-z370-gt1030.txt", 4, 5, "..."));
        assertThat(r.partial()).isTrue();
        assertThat(r.groupsNotFullyShown()).containsExactlyInAnyOrder(10, 11);
        assertThat(r.inventory().group(10).orElseThrow().members()).containsExactly(a("00:1f.0"), a("00:1f.2"));
        GpuPlacement gt1030 = r.inventory().gpus().stream().filter(g -> g.address().equals(a("01:00.0")))
                .findFirst().orElseThrow();
        assertThat(gt1030.group()).isEqualTo(2);
    }

    @Test
    void aCutInLspciOutputLeavesTheListingComplete() throws Exception {
        String lspci = ListingNoiseTest.fixture("03-intel-z690-rx6650xt.lspci-nnk.txt");
        int second = lspci.indexOf("03:00.1");
        String text = ListingNoiseTest.fixture("03-intel-z690-rx6650xt.txt") + "\n" + lspci.substring(0, second)
                + "...\n" + lspci.substring(second);
        ListingReport r = ListingParser.read(text);
        assertThat(r.partial()).isFalse();
        assertThat(r.skipped()).extracting(ListingReport.Line::text).containsExactly("...");
        assertThat(r.inventory().device(a("03:00.1")).orElseThrow().driver()).contains("vfio-pci");
    }
}
