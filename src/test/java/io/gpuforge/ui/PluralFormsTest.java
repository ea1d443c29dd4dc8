package io.gpuforge.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Counts read right in English (issue 61, step 2): no message puts a number straight before a plural noun ("1
 * templates", "6 GPUs on 1 connections"); each count goes through a choice format, and every count message formatted
 * with 0, 1 and 2 says "1 GPU" and "2 GPUs". Chinese has no plural forms: its messages keep the number as it is.
 */
class PluralFormsTest {

    /** Nouns whose count is shown; their plural is the noun with an s. */
    private static final List<String> NOUNS = List.of("GPU", "VM", "node", "template", "container", "connection", "line",
            "file", "reading", "point", "vCPU", "CPU", "thread", "task", "storage", "socket", "network", "group",
            "device", "core", "command", "rule", "sample", "function", "argument", "entry", "key");
    private static final Path BUNDLES = Path.of("src/main/resources/i18n");

    @Test
    void noNumberStandsStraightBeforeAPluralNoun() throws IOException {
        // a placeholder outside a choice (inside one it follows '<' or '#') straight before a plural noun
        Pattern plain = Pattern.compile("(?<![<#])\\{(\\d+)(?:,number[^}]*)?\\} (?:IOMMU )?(" + String.join("|",
                NOUNS.stream().map(n -> Pattern.quote(n.endsWith("y") ? n.replaceAll("y$", "ies") : n + "s")).toList())
                + ")(?![-\\w])");
        List<String> wrong = new ArrayList<>();
        for (Properties p : english()) {
            for (String key : p.stringPropertyNames()) {
                Matcher m = plain.matcher(p.getProperty(key));
                if (m.find()) {
                    wrong.add(key + ": " + m.group());
                }
            }
        }
        assertThat(wrong).as("counts without a choice format").isEmpty();
    }

    @Test
    void everyCountMessageSaysOneInTheSingularAndTwoInThePlural() throws IOException {
        Pattern choice = Pattern.compile("\\{\\d+,choice,");
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (Properties p : english()) {
            for (String key : p.stringPropertyNames()) {
                String pattern = p.getProperty(key);
                if (!choice.matcher(pattern).find()) {
                    continue;
                }
                checked++;
                for (int n = 0; n <= 2; n++) {
                    Object[] args = new Object[10];
                    java.util.Arrays.fill(args, n);
                    String text = new MessageFormat(pattern, Locale.ENGLISH).format(args);
                    for (String noun : NOUNS) {
                        String plural = noun.endsWith("y") ? noun.replaceAll("y$", "ies") : noun + "s";
                        if (n == 1 && text.matches("(?s).*\\b1 (?:IOMMU )?" + Pattern.quote(plural) + "\\b.*")
                                || n == 2 && text.matches("(?s).*\\b2 (?:IOMMU )?" + Pattern.quote(noun)
                                + "(?![-\\w]).*")) {
                            wrong.add(key + " with " + n + ": " + text);
                        }
                    }
                }
            }
        }
        assertThat(checked).as("count messages checked").isGreaterThan(20);
        assertThat(wrong).isEmpty();
    }

    private static List<Properties> english() throws IOException {
        List<Properties> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(BUNDLES)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".properties") && !f.toString().contains("_"))
                    .toList()) {
                Properties p = new Properties();
                try (InputStream in = Files.newInputStream(f)) {
                    p.load(in);
                }
                out.add(p);
            }
        }
        return out;
    }
}
