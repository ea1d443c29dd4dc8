package io.gpuforge.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every check message exists in English and Simplified Chinese; the two bundles match. */
class MessagesTest {

    @Test
    void bothLanguagesHaveEveryKeyTheChecksUse() throws IOException {
        String src = Files.readString(Path.of("src/main/java/io/gpuforge/passthrough/Readiness.java"));
        Matcher m = Pattern.compile("\"(check\\.[a-zA-Z0-9.]+)\"").matcher(src);
        Set<String> used = new TreeSet<>();
        while (m.find()) {
            used.add(m.group(1));
        }
        assertThat(used).hasSizeGreaterThan(30);
        Messages en = new Messages(Locale.ENGLISH);
        Messages zh = new Messages(Locale.SIMPLIFIED_CHINESE);
        assertThat(en.bundle().keySet()).containsAll(used);
        assertThat(new TreeSet<>(zh.bundle().keySet())).isEqualTo(new TreeSet<>(en.bundle().keySet()));
        for (String k : en.bundle().keySet()) {
            assertThat(zh.bundle().getString(k)).as(k).isNotEqualTo(en.bundle().getString(k));
        }
    }

    @Test
    void apostrophesAndArgumentsRender() {
        Messages en = new Messages(Locale.ENGLISH);
        assertThat(en.format("check.isolation.alone", "11")).isEqualTo("IOMMU group 11 holds only this card's functions.");
        assertThat(en.fix(Check.of("x", Check.Status.FAIL, "check.kernel.off", "intel_iommu=off")))
                .contains("Remove intel_iommu=off from the kernel command line (the plan does it).");
        assertThat(en.fix(Check.of("x", Check.Status.PASS, "check.kernel.off", "a"))).isEmpty();
    }
}
