package io.gpuforge.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds English sentences in text meant to be Chinese: a run of three or more Latin words, one blank apart, with an
 * English function word among them ("could not be read", "the kernel log of"). Names, commands, units and quoted log
 * words ("NVIDIA GeForce RTX 3090", "options vfio-pci disable_idle_d3=1", "Above 4G decoding") carry no function word
 * and pass; what a test allows besides (a user's own names) it strips before asking.
 */
public final class LatinText {

    private static final Pattern RUN = Pattern.compile(
            "[A-Za-z][A-Za-z0-9'’_-]*(?: [A-Za-z][A-Za-z0-9'’_-]*){2,}");
    private static final Set<String> FUNCTION_WORDS = Set.of("the", "a", "an", "and", "of", "to", "with", "for",
            "from", "could", "cannot", "can", "this", "that", "was", "were", "has", "have", "its", "it", "be", "are",
            "is", "not", "no", "on", "in", "by", "or", "at", "as", "what", "when", "which", "there");

    private LatinText() {
    }

    /** The English sentences (runs of words) in {@code text}; empty when it has none. */
    public static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = RUN.matcher(text);
        while (m.find()) {
            for (String w : m.group().split(" ")) {
                if (FUNCTION_WORDS.contains(w.toLowerCase(Locale.ROOT))) {
                    out.add(m.group());
                    break;
                }
            }
        }
        return out;
    }
}
