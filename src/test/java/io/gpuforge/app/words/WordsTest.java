package io.gpuforge.app.words;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.message.Message;
import io.gpuforge.testing.LatinText;
import java.text.MessageFormat;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The engines' words in both languages: every key rendered through {@link Words} exists in English and Simplified
 * Chinese with the same arguments, parses as a {@link MessageFormat} (apostrophes doubled), lives in one bundle only,
 * and reads in Chinese with no English sentence left in it.
 */
class WordsTest {

    private static final Pattern ARGUMENT = Pattern.compile("\\{(\\d+)");

    /** The keys of each bundle that go through {@link Words}: the passthrough bundle's checks have their own. */
    private static boolean rendered(String bundle, String key) {
        return !bundle.equals("passthrough.messages") || key.startsWith("note.") || key.startsWith("verify.");
    }

    @Test
    void everyKeyIsInBothLanguagesWithTheSameArgumentsAndReadsAsChinese() {
        Map<String, String> owner = new HashMap<>();
        for (String name : Words.BUNDLES) {
            ResourceBundle en = Words.load(name, Locale.ENGLISH);
            ResourceBundle zh = Words.load(name, Locale.SIMPLIFIED_CHINESE);
            assertThat(new TreeSet<>(zh.keySet())).as(name).isEqualTo(new TreeSet<>(en.keySet()));
            for (String key : en.keySet()) {
                assertThat(owner.put(key, name)).as("%s is in %s and %s", key, owner.get(key), name).isNull();
                if (!rendered(name, key)) {
                    continue;
                }
                String chinese = zh.getString(key);
                assertThat(arguments(chinese)).as(key).isEqualTo(arguments(en.getString(key)));
                for (String pattern : List.of(en.getString(key), chinese)) {
                    assertThat(pattern.replace("''", "")).as("%s: an apostrophe is written '' in a MessageFormat", key)
                            .doesNotContain("'");
                }
                // every argument a number, so that number and choice formats take it too
                String shown = new MessageFormat(chinese, Locale.SIMPLIFIED_CHINESE).format(new Object[] {3, 3, 3, 3});
                assertThat(LatinText.sentences(shown)).as("English left in %s: %s", key, shown).isEmpty();
            }
        }
    }

    @Test
    void aMessageRendersItsPartsAndListsInTheLanguage() {
        Message m = Message.of("fix.untrusted", List.of(Message.of("side.kernel", "iommu=pt"),
                Message.of("side.udev")), "pve-1", "power-state");
        assertThat(new Words(Locale.ENGLISH).text(m)).startsWith("The host side (kernel arguments iommu=pt; udev rules)"
                + " is not planned: no line of pve-1's own logs shows power-state;");
        assertThat(new Words(Locale.SIMPLIFIED_CHINESE).text(m)).startsWith("主机这一侧（内核参数 iommu=pt；udev 规则）没有列入计划");
        assertThat(new Words(Locale.ENGLISH).text(Message.of("problem.memory.short", "pve-1", "200.0 GiB", "96.0 GiB",
                "128.0 GiB"))).isEqualTo("Not enough memory on pve-1: 200.0 GiB asked, 96.0 GiB free of 128.0 GiB");
        assertThat(new Words(Locale.ENGLISH).text(Message.of("no.such.key"))).isEqualTo("!no.such.key!");
    }

    private static Set<String> arguments(String pattern) {
        Set<String> out = new TreeSet<>();
        Matcher m = ARGUMENT.matcher(pattern);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
