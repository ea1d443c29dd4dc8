package io.gpuforge.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gpuforge.app.diagnose.DiagnoseService;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.testing.SharedFixtures;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 10,000-line host journal (two real boot logs repeated, a real failure at its end) diagnosed by GPUForge, the
 * file read as the CLI reads it, against GNU {@code grep -P} with every strong signature in one pattern over the
 * same file: the peer an admin would reach for, which only finds lines. Median of 9 runs after one warm-up, and
 * the first, cold run (what one {@code gpuforge diagnose} pays). Target: under 1 s. Writes
 * target/bench/diagnose.json. Needs grep with -P (Debian's does).
 */
@Tag("bench")
class DiagnoseBench {

    private static final int LINES = 10_000;
    private static final int RUNS = 9;

    @TempDir
    Path dir;

    @Test
    void tenThousandLinesAgainstGrep() throws Exception {
        assertThat(new File("/usr/bin/grep")).as("apt-get install grep").exists();
        List<String> boot = new ArrayList<>();
        for (String f : List.of("config/01-ubuntu2204-z690-dmesg-dmar.txt", "config/02-void-z790-dmesg-vfio.txt")) {
            new String(SharedFixtures.read(f), StandardCharsets.UTF_8).lines().forEach(boot::add);
        }
        String failure = DiagnoseCases.fixture("07-harvester-host-bar1-cant-reserve-efifb.txt");
        List<String> lines = new ArrayList<>();
        while (lines.size() < LINES - failure.lines().count()) {
            lines.add(boot.get(lines.size() % boot.size()));
        }
        failure.lines().forEach(lines::add);
        Path log = Files.writeString(dir.resolve("journal.txt"), String.join("\n", lines) + "\n");

        DiagnoseService service = new DiagnoseService();
        long t0 = System.nanoTime();
        Diagnosis cold = service.files(List.of(log.toString()), () -> null);
        long coldMs = (System.nanoTime() - t0) / 1_000_000;
        assertThat(cold.cause()).isEqualTo("bar-reserved-by-framebuffer");

        String pcre = Signatures.TABLE.stream().flatMap(c -> c.strong().stream()).map(Pattern::pattern)
                .collect(Collectors.joining("|"));
        grep(pcre, log);
        List<Long> gpuforgeMs = new ArrayList<>();
        List<Long> grepMs = new ArrayList<>();
        int grepHits = 0;
        for (int i = 0; i < RUNS; i++) {
            t0 = System.nanoTime();
            Diagnosis d = service.files(List.of(log.toString()), () -> null);
            gpuforgeMs.add((System.nanoTime() - t0) / 1_000_000);
            assertThat(d.cause()).isEqualTo("bar-reserved-by-framebuffer");
            t0 = System.nanoTime();
            grepHits = grep(pcre, log);
            grepMs.add((System.nanoTime() - t0) / 1_000_000);
        }
        long g = median(gpuforgeMs);
        long k = median(grepMs);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("benchmark", "diagnose-10000-line-journal");
        out.put("lines", lines.size());
        out.put("bytes", Files.size(log));
        out.put("runs", RUNS);
        out.put("signatures", Signatures.TABLE.stream().mapToInt(c -> c.strong().size() + c.supporting().size()).sum());
        out.put("gpuforge_cold_first_run_ms", coldMs);
        out.put("gpuforge_ms", gpuforgeMs);
        out.put("gpuforge_median_ms", g);
        out.put("gpuforge_cause", cold.cause());
        out.put("grep_P_strong_signatures_ms", grepMs);
        out.put("grep_P_strong_signatures_median_ms", k);
        out.put("grep_P_matching_lines", grepHits);
        // the real failure writes "can’t" with a typographic apostrophe: the plain pattern misses it
        out.put("grep_P_found_the_failure", grepHits > 0);
        out.put("gpuforge_over_grep", Math.round(100.0 * g / Math.max(1, k)) / 100.0);
        out.put("target_ms", 1000);
        out.put("within_target", Math.max(coldMs, g) < 1000);
        Files.createDirectories(Path.of("target/bench"));
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(
                Path.of("target/bench/diagnose.json").toFile(), out);
    }

    /**
     * An 8 MiB log made to hurt the signatures (lines of the longest length read, each the text of a signature with a
     * {@code .*} or {@code \S*} repeated: vfio_dma_map(, qmp socket, start failed:, mdev, vfio, iommu_group…) against
     * an 8 MiB log of real boot lines, each read as the CLI reads a file. Target: the crafted one under 4 s (issue 59,
     * finding 10; before the signatures were bounded it took 18.5–23.4 s). Writes target/bench/diagnose-crafted.json.
     */
    @Test
    void aCraftedEightMebibyteLogAgainstARealOne() throws Exception {
        int size = 8 * 1024 * 1024;
        List<String> units = List.of("vfio_dma_map(", "vfio_container_dma_map(", "qmp socket ", "start failed:",
                "unable to determine the device handle for gpu ", "mdev", "vfio", "/sys/kernel/iommu_groups",
                "iommu_group", "vfio_dma_map cannot ", "vfio x: bar 1 [mem ");
        StringBuilder crafted = new StringBuilder(size + LogLines.MAX_LINE);
        for (int i = 0; crafted.length() < size; i++) {
            String unit = units.get(i % units.size());
            StringBuilder line = new StringBuilder(LogLines.MAX_LINE);
            while (line.length() + unit.length() < LogLines.MAX_LINE - 1) {
                line.append(unit);
            }
            crafted.append(line).append('\n');
        }
        List<String> boot = new ArrayList<>();
        for (String f : List.of("config/01-ubuntu2204-z690-dmesg-dmar.txt", "config/02-void-z790-dmesg-vfio.txt")) {
            new String(SharedFixtures.read(f), StandardCharsets.UTF_8).lines().forEach(boot::add);
        }
        StringBuilder real = new StringBuilder(size + 1024);
        for (int i = 0; real.length() < size; i++) {
            real.append(boot.get(i % boot.size())).append('\n');
        }
        Path craftedLog = Files.writeString(dir.resolve("crafted.log"), crafted);
        Path realLog = Files.writeString(dir.resolve("real.log"), real);
        DiagnoseService service = new DiagnoseService();
        service.files(List.of(realLog.toString()), () -> null); // warm-up
        List<Long> craftedMs = new ArrayList<>();
        List<Long> realMs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            long t0 = System.nanoTime();
            service.files(List.of(craftedLog.toString()), () -> null);
            craftedMs.add((System.nanoTime() - t0) / 1_000_000);
            t0 = System.nanoTime();
            service.files(List.of(realLog.toString()), () -> null);
            realMs.add((System.nanoTime() - t0) / 1_000_000);
        }
        long c = median(craftedMs);
        long r = median(realMs);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("benchmark", "diagnose-crafted-8MiB");
        out.put("crafted_bytes", Files.size(craftedLog));
        out.put("real_bytes", Files.size(realLog));
        out.put("crafted_ms", craftedMs);
        out.put("real_ms", realMs);
        out.put("crafted_median_ms", c);
        out.put("real_median_ms", r);
        out.put("crafted_over_real", Math.round(100.0 * c / Math.max(1, r)) / 100.0);
        out.put("target_ms", 4000);
        out.put("within_target", c < 4000);
        Files.createDirectories(Path.of("target/bench"));
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(
                Path.of("target/bench/diagnose-crafted.json").toFile(), out);
    }

    /** Lines GNU grep -P finds with the pattern, case-insensitive (exit 1: none). */
    private static int grep(String pcre, Path file) throws Exception {
        Process p = new ProcessBuilder("grep", "-ciP", pcre, file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor()).as(out).isBetween(0, 1);
        return Integer.parseInt(out);
    }

    private static long median(List<Long> xs) {
        List<Long> s = new ArrayList<>(xs);
        s.sort(Long::compare);
        return s.get(s.size() / 2);
    }
}
