package io.gpuforge.app.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.passthrough.Check;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import io.gpuforge.app.words.Words;
import io.gpuforge.domain.message.Message;
import org.junit.jupiter.api.Test;

/** Every check message exists in English and Simplified Chinese; the two bundles match. */
class CheckMessagesTest {

    @Test
    void bothLanguagesHaveEveryKeyTheChecksUse() throws IOException {
        Set<String> used = new TreeSet<>();
        try (Stream<Path> sources = Files.list(Path.of("src/main/java/io/gpuforge/passthrough"))) {
            for (Path p : sources.filter(x -> x.toString().endsWith(".java")).toList()) {
                Matcher m = Pattern.compile("\"(check\\.[a-zA-Z0-9.]+)\"").matcher(Files.readString(p));
                while (m.find()) {
                    used.add(m.group(1));
                }
            }
        }
        assertThat(used).hasSizeGreaterThan(45).contains("check.firmware.inferred", "check.bar.unknown",
                "check.d3cold.unknown", "check.acs.unknown");
        CheckMessages en = new CheckMessages(Locale.ENGLISH);
        CheckMessages zh = new CheckMessages(Locale.SIMPLIFIED_CHINESE);
        assertThat(en.bundle().keySet()).containsAll(used);
        assertThat(new TreeSet<>(zh.bundle().keySet())).isEqualTo(new TreeSet<>(en.bundle().keySet()));
        for (String k : en.bundle().keySet()) {
            assertThat(zh.bundle().getString(k)).as(k).isNotEqualTo(en.bundle().getString(k));
        }
    }

    @Test
    void aPlansNotesAreChineseInChinese() {
        CheckMessages en = new CheckMessages(Locale.ENGLISH);
        Words zh = new Words(Locale.SIMPLIFIED_CHINESE);
        List<String> notes = en.bundle().keySet().stream().filter(k -> k.startsWith("note.")).sorted().toList();
        assertThat(notes).hasSizeGreaterThan(14);
        for (String k : notes) {
            String chinese = zh.text(Message.of(k, "/etc/x", "iommu=pt", "3"));
            assertThat(io.gpuforge.testing.LatinText.sentences(chinese)).as("%s: %s", k, chinese).isEmpty();
        }
        assertThat(new Words(Locale.ENGLISH).text(Message.of("note.powerLimit", "250", "gpuforge-power.service")))
                .isEqualTo("The GPU's power limit is set to 250 W at every boot by gpuforge-power.service;"
                        + " 'gpuforge rollback' removes the unit.");
    }

    @Test
    void apostrophesAndArgumentsRender() {
        CheckMessages en = new CheckMessages(Locale.ENGLISH);
        assertThat(en.format("check.isolation.alone", "11")).isEqualTo("IOMMU group 11 holds only this card's functions.");
        assertThat(en.fix(Check.of("x", Check.Status.FAIL, "check.kernel.off", "intel_iommu=off")))
                .contains("Remove intel_iommu=off from the kernel command line (the plan does it).");
        assertThat(en.fix(Check.of("x", Check.Status.PASS, "check.kernel.off", "a"))).isEmpty();
        assertThat(en.message(Check.of("x", Check.Status.UNKNOWN, "check.isolation.partial", "11")))
                .startsWith("IOMMU group 11 holds nothing but this card's functions");
        assertThat(en.message(Check.of("x", Check.Status.UNKNOWN, "check.bar.unknown", "0000:01:00.0")))
                .startsWith("The sizes of the device's BARs");
        assertThat(en.message(Check.of("x", Check.Status.PASS, "check.critical.classes")))
                .contains("a GPU the host shows its console on").doesNotContain("''");
    }
}
