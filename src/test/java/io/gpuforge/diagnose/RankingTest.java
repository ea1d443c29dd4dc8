package io.gpuforge.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.words.Words;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.diagnose.Finding;
import io.gpuforge.domain.diagnose.LogInput;
import io.gpuforge.domain.diagnose.LogSource;
import io.gpuforge.testing.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The causes in the order their evidence ranks them (issue 74): every real case and every written one, each with its
 * whole ranking, and the ranking said in words.
 */
class RankingTest {

    private static final Words EN = new Words(Locale.ENGLISH);

    /** The real cases' whole rankings: the README names the first, the rest are what else their text shows. */
    private static final Map<String, List<String>> FIXTURE_ALSO_SEEN = Map.of(
            "21-win-guest-code12-code10-tesla-m40-24gb-mmio.txt", List.of("guest-code-43"));

    static Stream<Arguments> cases() throws Exception {
        List<Arguments> out = new ArrayList<>();
        for (Map.Entry<String, String> c : DiagnoseCases.fixtureCauses().entrySet()) {
            List<String> ranking = new ArrayList<>(List.of(c.getValue()));
            ranking.addAll(FIXTURE_ALSO_SEEN.getOrDefault(c.getKey(), List.of()));
            out.add(Arguments.of(c.getKey(), DiagnoseCases.fixture(c.getKey()), new String(SharedFixtures.read(
                    "diagnose/" + c.getKey()), StandardCharsets.UTF_8), ranking));
        }
        for (String f : DiagnoseCases.writtenFiles()) {
            out.add(Arguments.of(f, DiagnoseCases.written(f), new String(RankingTest.class.getResourceAsStream(
                    "/diagnose/" + f).readAllBytes(), StandardCharsets.UTF_8), DiagnoseCases.writtenRanking(f)));
        }
        return out.stream();
    }

    /**
     * Each case ranks as it says, pasted as a user would and as stored: the header's {@code #} lines (where it comes
     * from, what it stands for, often naming causes) are notes, which change nothing.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyCaseRanksItsCausesAsItsEvidenceWeighs(String name, String text, String stored, List<String> ranking) {
        Diagnosis d = DiagnoserTest.diagnose(text);
        assertThat(d.causes()).extracting(Finding::id).as(name).containsExactlyElementsOf(ranking);
        assertThat(DiagnoserTest.diagnose(stored).causes()).extracting(Finding::id).as(name + " as stored")
                .containsExactlyElementsOf(ranking);
        assertThat(d.causes()).extracting(f -> f.weight().score()).as("heaviest first")
                .isSortedAccordingTo(java.util.Comparator.reverseOrder());
        d.causes().forEach(f -> assertThat(f.weight().lines()).isPositive()
                .isLessThanOrEqualTo((int) f.evidence().stream().filter(e -> e.strong()).count()));
    }

    @Test
    void theCasesCoverEveryFaultTheIssueNamed() throws Exception {
        assertThat(DiagnoseCases.writtenFiles()).contains("ranked-power-over-one-bar.txt", "host-d3cold-nvrm.txt",
                "unknown-hint-only-in-comments.txt", "ranked-reset-then-power.txt");
        assertThat(DiagnoseCases.fixtureCauses()).hasSize(8);
    }

    /**
     * Three power-state lines at the start outweigh one BAR line the boot printed (healthy boots print it too), and
     * the ranking says why: how many lines, from which log, how long before the failure.
     */
    @Test
    void repeatedLinesNearTheFailureOutweighOneBootLineAndSaySo() throws Exception {
        Diagnosis d = DiagnoserTest.diagnose(DiagnoseCases.written("ranked-power-over-one-bar.txt"));
        Finding power = d.causes().get(0);
        assertThat(power.weight().lines()).isEqualTo(3);
        assertThat(power.weight().sources()).containsExactly(LogSource.KERNEL_LOG);
        assertThat(power.weight().secondsBeforeFailure()).hasValue(2);
        assertThat(EN.text(power.weight().said()))
                .isEqualTo("3 lines from the kernel log, the last written 2 s before the log's last error");
        assertThat(EN.text(d.causes().get(1).weight().said()))
                .isEqualTo("one line from the kernel log, written 5 min before the log's last error");
        assertThat(new Words(Locale.SIMPLIFIED_CHINESE).text(power.weight().said()))
                .isEqualTo("3 行，来自内核日志，最后一行写于日志最后的错误前 2 秒");
    }

    /** The host's NVIDIA driver failing to wake its card is the host's power state, measured to Proxmox's failure. */
    @Test
    void aHostsD3coldWithItsOwnNvrmLineIsThePowerStateNoGuestCause() throws Exception {
        Diagnosis d = DiagnoserTest.diagnose(DiagnoseCases.written("host-d3cold-nvrm.txt"));
        assertThat(d.causes()).extracting(Finding::id).containsExactly("power-state", "reset-bug");
        assertThat(EN.text(d.causes().get(0).weight().said()))
                .isEqualTo("one line from the kernel log, written 1 s before the start failed");
        String asStored = new String(RankingTest.class.getResourceAsStream("/diagnose/host-d3cold-nvrm.txt")
                .readAllBytes(), StandardCharsets.UTF_8);
        assertThat(asStored).as("its header says 'no guest's Code 43', which makes no guest's log of it")
                .contains("Code 43");
    }

    /**
     * The same message quoted twice is one line; written at three moments it is three; a person's retelling of a
     * line weighs half the line; several logs are named.
     */
    @Test
    void independentLinesCountOnceAndProseWeighsHalf() {
        String line = "vfio-pci 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible";
        assertThat(DiagnoserTest.diagnose(line + "\n" + line).causes().get(0).weight().lines()).isEqualTo(1);
        assertThat(DiagnoserTest.diagnose("[ 1.0] " + line + "\n[ 2.0] " + line + "\n[ 3.0] " + line).causes().get(0)
                .weight().lines()).isEqualTo(3);
        double log = DiagnoserTest.diagnose("[ 1.0] " + line).causes().get(0).weight().score();
        double told = DiagnoserTest.diagnose("After the VM stopped it said it was unable to change power state from"
                + " D3cold to D0").causes().get(0).weight().score();
        assertThat(told).isEqualTo(log / 2);
        Diagnosis two = Diagnoser.diagnose(List.of(LogInput.of("task.log",
                "TASK ERROR: start failed: QEMU exited with code 1: vfio 0000:01:00.0: group 1 is not viable"),
                LogInput.of("qemu.log", "2024-05-01T10:00:00.123Z qemu-system-x86_64: -device vfio-pci,host=0000:01:00.0:"
                        + " vfio 0000:01:00.0: group 1 is not viable")), List.of());
        assertThat(EN.text(two.causes().get(0).weight().said()))
                .startsWith("one line from the Proxmox task log and QEMU's or libvirt's log");
    }
}
