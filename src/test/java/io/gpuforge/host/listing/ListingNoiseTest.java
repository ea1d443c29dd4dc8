package io.gpuforge.host.listing;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.pci.ListingReport;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.testing.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real listings of shared/fixtures/hosts wrapped in what forum posts put around them: a header line,
 * the shell loop and its prompt, Markdown fences, BBCode, prose, blank lines, Windows line endings,
 * trailing spaces, other indentation, line numbers, quote marks, a tree drawing, and mixes of these.
 * Each wrapped listing must give exactly the inventory of the clean one, and count the lines it skipped.
 */
class ListingNoiseTest {

    static final String[] FIXTURES = {"01-intel-z790-rtx4070-rx590.txt", "03-intel-z690-rx6650xt.txt",
        "07-intel-z370-gt1030.txt", "09-amd-x570-gtx1070-hd7750.txt"};

    static final String LOOP = "for d in /sys/kernel/iommu_groups/*/devices/*; do n=${d#*/iommu_groups/*}; n=${n%%/*};"
            + " printf 'IOMMU group %s ' \"$n\"; lspci -nns \"${d##*/}\"; done";

    /** A way of wrapping a listing, and how many non-blank lines it adds that are not listing. */
    record Noise(String name, UnaryOperator<String> wrap, int addedLines) {
        @Override
        public String toString() {
            return name;
        }
    }

    static String fixture(String name) throws Exception {
        return new String(SharedFixtures.read("hosts/" + name), StandardCharsets.UTF_8);
    }

    static List<String> lines(String text) {
        List<String> out = new ArrayList<>(List.of(text.split("\n", -1)));
        while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        return out;
    }

    static UnaryOperator<String> eachLine(UnaryOperator<String> f) {
        return t -> {
            StringBuilder b = new StringBuilder();
            for (String l : lines(t)) {
                b.append(f.apply(l)).append('\n');
            }
            return b.toString();
        };
    }

    private static final Pattern BLOCK_HEADER = Pattern.compile("^IOMMU [Gg]roup (\\d+):?$");
    private static final Pattern ONE_LINE = Pattern.compile("^IOMMU [Gg]roup (\\d+) (.*)$");

    /** Groups and their device lines, read from the fixture text as a person would (block or one-line). */
    static Map<String, List<String>> groupsOf(String text) {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        String current = null;
        for (String l : lines(text)) {
            Matcher h = BLOCK_HEADER.matcher(l.strip());
            Matcher o = ONE_LINE.matcher(l.strip());
            if (h.matches()) {
                current = h.group(1);
                groups.putIfAbsent(current, new ArrayList<>());
            } else if (o.matches()) {
                groups.computeIfAbsent(o.group(1), k -> new ArrayList<>()).add(o.group(2));
            } else if (!l.isBlank()) {
                groups.get(current).add(l.strip());
            }
        }
        return groups;
    }

    /** The listing drawn as {@code tree} draws it: group numbers as branches, devices as their leaves. */
    static String tree(String text, boolean labelled) {
        StringBuilder b = new StringBuilder("IOMMU groups\n");
        List<Map.Entry<String, List<String>>> groups = new ArrayList<>(groupsOf(text).entrySet());
        for (int g = 0; g < groups.size(); g++) {
            boolean lastGroup = g == groups.size() - 1;
            b.append(lastGroup ? "└── " : "├── ").append(labelled ? "IOMMU Group " : "")
                    .append(groups.get(g).getKey()).append('\n');
            List<String> devs = groups.get(g).getValue();
            for (int d = 0; d < devs.size(); d++) {
                b.append(lastGroup ? "    " : "│   ").append(d == devs.size() - 1 ? "└── " : "├── ")
                        .append(devs.get(d)).append('\n');
            }
        }
        return b.toString();
    }

    static Stream<Noise> noises() {
        return Stream.of(
                new Noise("header IOMMU groups:", t -> "IOMMU groups:\n" + t, 1),
                new Noise("header IOMMU", t -> "IOMMU\n\n" + t, 1),
                new Noise("prompt and loop", t -> "root@pve:~# " + LOOP + "\n" + t + "root@pve:~# \n", 2),
                new Noise("dollar and hash prompts", t -> "$ ./iommu.sh\n" + t + "$ \n# \n", 3),
                new Noise("markdown fence", t -> "```\n" + t + "```\n", 2),
                new Noise("markdown fence with language", t -> "```text\n" + t + "```", 2),
                new Noise("tilde fence", t -> "~~~\n" + t + "~~~\n", 2),
                new Noise("bbcode code tags on the first and last line", t -> {
                    List<String> l = lines(t);
                    l.set(0, "[CODE]" + l.get(0));
                    l.set(l.size() - 1, l.get(l.size() - 1) + "[/CODE]");
                    return String.join("\n", l) + "\n";
                }, 0),
                new Noise("prose before and after", t -> "Hi all, here are my IOMMU groups (the GPU is the second card):\n\n"
                        + t + "\nAny idea why the VM does not start? Thanks in advance!\nEdit: typo\n", 3),
                new Noise("blank lines between all lines", t -> "\n\n" + t.replace("\n", "\n\n") + "\n\n", 0),
                new Noise("windows line endings", t -> t.replace("\n", "\r\n"), 0),
                new Noise("trailing spaces", eachLine(l -> l + "   "), 0),
                new Noise("trailing tabs", eachLine(l -> l + "\t"), 0),
                new Noise("indent with two spaces", eachLine(l -> l.startsWith("\t") || l.startsWith("    ")
                        ? "  " + l.strip() : l), 0),
                new Noise("indent with non-breaking spaces", eachLine(l -> l.startsWith("\t") || l.startsWith("    ")
                        ? "\u00a0\u00a0\u00a0\u00a0" + l.strip() : l), 0),
                new Noise("pastebin line numbers", t -> {
                    StringBuilder b = new StringBuilder();
                    List<String> l = lines(t);
                    for (int i = 0; i < l.size(); i++) {
                        b.append(String.format("%3d | %s\n", i + 1, l.get(i)));
                    }
                    return b.toString();
                }, 0),
                new Noise("cat -n line numbers", t -> {
                    StringBuilder b = new StringBuilder();
                    List<String> l = lines(t);
                    for (int i = 0; i < l.size(); i++) {
                        b.append(String.format("%6d\t%s\n", i + 1, l.get(i)));
                    }
                    return b.toString();
                }, 0),
                new Noise("quoted with >", eachLine(l -> "> " + l), 0),
                new Noise("tree with group numbers", t -> tree(t, false), 1),
                new Noise("tree with group labels", t -> tree(t, true), 1),
                new Noise("terminal colours on the prompt", t -> "\u001b[01;32mroot@pve\u001b[00m:\u001b[01;34m~\u001b[00m# "
                        + LOOP + "\n" + t, 1),
                new Noise("byte-order mark", t -> "\ufeff" + t, 0),
                new Noise("everything at once", t -> "Hey, first post here. Output of the usual script:\r\n\r\n```\r\n"
                        + "\u001b[01;32mroot@pve\u001b[00m:~# " + LOOP + "\r\n"
                        + "IOMMU groups:\r\n" + t.replace("\n", "   \r\n") + "root@pve:~#\r\n```\r\n\r\n"
                        + "The card shows up fine in the host.\r\n", 7));
    }

    static Stream<Arguments> everyFixtureInEveryNoise() {
        return Stream.of(FIXTURES).flatMap(f -> noises().map(n -> Arguments.of(f, n)));
    }

    @ParameterizedTest(name = "{0} / {1}")
    @MethodSource("everyFixtureInEveryNoise")
    void noiseIsSkippedAndCounted(String file, Noise noise) throws Exception {
        String clean = fixture(file);
        ListingReport expected = ListingParser.read(clean);
        ListingReport r = ListingParser.read(noise.wrap().apply(clean));
        assertThat(r.inventory()).isEqualTo(expected.inventory());
        assertThat(r.skipped()).as("skipped lines %s", r.skipped()).hasSize(noise.addedLines());
        assertThat(r.partial()).as("gaps %s", r.gaps()).isFalse();
        assertThat(r.groupsNotFullyShown()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.gpuforge.host.listing.ListingNoiseTest#noises")
    void noiseAroundTheListingWithItsLspciOutput(Noise noise) throws Exception {
        String both = fixture("03-intel-z690-rx6650xt.txt") + "root@pve:~# lspci -nnk -s 03:00\n"
                + fixture("03-intel-z690-rx6650xt.lspci-nnk.txt");
        ListingReport clean = ListingParser.read(fixture("03-intel-z690-rx6650xt.txt") + "\n"
                + fixture("03-intel-z690-rx6650xt.lspci-nnk.txt"));
        if (noise.name().startsWith("tree")) {
            return; // a tree drawing of lspci -nnk output is not something people post
        }
        ListingReport r = ListingParser.read(noise.wrap().apply(both));
        assertThat(r.inventory()).isEqualTo(clean.inventory());
        assertThat(r.inventory().device(PciAddress.parse("03:00.0")).orElseThrow().driver())
                .contains("vfio-pci");
        assertThat(r.skipped()).as("the lspci prompt too: %s", r.skipped()).hasSize(noise.addedLines() + 1);
    }
}
