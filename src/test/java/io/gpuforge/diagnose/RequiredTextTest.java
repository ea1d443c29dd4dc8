package io.gpuforge.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.testing.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The text a signature needs is really needed: skipping lines without it never hides a match. */
class RequiredTextTest {

    @Test
    void onlyTextEveryMatchHoldsIsRequired() {
        assertThat(RequiredText.of("slot \\d+ function 0 not available for vfio-pci,? in use by vga"))
                .contains(" function 0 not available for vfio-pci");
        assertThat(RequiredText.of("unknown pci header type '?127'?")).contains("unknown pci header type ");
        assertThat(RequiredText.of("vfio_dma_map\\(.*= ?-(22|12|14)")).contains("vfio_dma_map(");
        assertThat(RequiredText.of("(?<!exit )(?<!exited with )\\bcode ?12\\b")).contains("code");
        assertThat(RequiredText.of("iommu=off|amd_iommu=off")).isEmpty();
        assertThat(RequiredText.of("[0-9a-f]{8}-x")).isEmpty();
        assertThat(RequiredText.of("ab{0,3}cdef")).contains("cdef");
    }

    @Test
    void noLineOfAnyCaseMatchesAPatternWithoutItsRequiredText() throws Exception {
        List<String> lines = new ArrayList<>();
        for (String f : DiagnoseCases.fixtureCauses().keySet()) {
            DiagnoseCases.fixture(f).lines().forEach(lines::add);
        }
        try (Stream<Path> written = Files.list(Path.of("src/test/resources/diagnose"))) {
            for (Path p : written.filter(p -> p.toString().endsWith(".txt")).toList()) {
                Files.readString(p).lines().forEach(lines::add);
            }
        }
        new String(SharedFixtures.read("config/01-ubuntu2204-z690-dmesg-dmar.txt"), StandardCharsets.UTF_8).lines()
                .forEach(lines::add);
        int checked = 0;
        for (Signatures.Cause c : Signatures.TABLE) {
            for (Pattern p : Stream.concat(c.strong().stream(), c.supporting().stream()).toList()) {
                for (String line : lines) {
                    String plain = LogLines.plain(line);
                    if (p.matcher(plain).find()) {
                        checked++;
                        assertThat(Signatures.mayMatch(p, plain)).as(p + " on " + line).isTrue();
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(50);
    }
}
