package io.gpuforge.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * No signature is catastrophic on a line made to hurt it: for every pattern of the table, lines of the longest length
 * read ({@link LogLines#MAX_LINE}) built from the text it needs repeated, alone and with its other literal pieces
 * between, are searched while the characters the regex engine reads are counted. A pattern whose work grows with
 * the square of the line (a {@code .*} or {@code \S*} tried again from every repeat) reads thousands of times the
 * line; a bounded one a small multiple (issue 59, finding 10). Counted, not timed.
 */
class SignatureCostTest {

    /** Pieces of real failure lines, cut where a signature waits for its end. */
    private static final List<String> UNITS = List.of("vfio x: bar 1 [mem ", "vfio-pci 0000:01:00.0: bar 1: ",
            "vfio_dma_map(0x5, 0x0, 0x80000000, 0x7f) ", "qmp socket - ", "start failed: command '/usr/bin/kvm -id ",
            "mdev-uuid: ", "group 12 is not viable ", "not ready 100 ms after ", "code 43 code 10 exit code ");

    /** Characters read per character of the line, at most. */
    private static final int PER_CHAR = 64;

    @Test
    void everySignatureReadsALineMadeToHurtItAFewTimesAtMost() {
        List<String> costly = new ArrayList<>();
        int checked = 0;
        for (Signatures.Cause c : Signatures.TABLE) {
            for (List<Pattern> ps : List.of(c.strong(), c.supporting())) {
                for (Pattern p : ps) {
                    for (String line : hurtful(p.pattern())) {
                        Counting text = new Counting(line);
                        p.matcher(text).find();
                        checked++;
                        if (text.reads > (long) PER_CHAR * line.length()) {
                            costly.add(c.id() + " /" + p.pattern() + "/ read " + text.reads / line.length()
                                    + " times a line of " + line.length() + " built of '" + line.substring(0, 24)
                                    + "…'");
                        }
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(100);
        assertThat(costly).as("signatures whose work grows faster than the line").isEmpty();
    }

    /** Lines of MAX_LINE characters: each literal piece of the pattern repeated, and all of them in turn. */
    private static List<String> hurtful(String regex) {
        List<String> pieces = new ArrayList<>();
        for (String piece : regex.split("\\.\\*\\??|\\\\S\\*\\??|\\\\S\\+|\\[\\^[^\\]]*\\]\\*|\\(\\?<![^)]*\\)")) {
            String literal = literal(piece);
            if (literal.length() >= 2) {
                pieces.add(literal);
            }
        }
        List<String> lines = new ArrayList<>();
        for (String piece : pieces) {
            lines.add(fill(piece));
            lines.add(fill(piece.replace(" ", "")));
        }
        // words of signatures with a pause between, as an attacker would write them (a bar line cut before its "]")
        for (String unit : UNITS) {
            lines.add(fill(unit));
        }
        if (pieces.size() > 1) {
            lines.add(fill(String.join("", pieces)));
            lines.add(fill(String.join(" ", pieces) + " "));
        }
        return lines;
    }

    /** The characters a piece of a pattern matches as they are: escaped ones kept, classes and operators left out. */
    private static String literal(String piece) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < piece.length(); i++) {
            char c = piece.charAt(i);
            if (c == '\\' && i + 1 < piece.length()) {
                char e = piece.charAt(++i);
                if (!Character.isLetterOrDigit(e)) {
                    b.append(e);
                }
            } else if ("()[]?*+|{}^$>".indexOf(c) < 0) {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static String fill(String unit) {
        if (unit.isEmpty()) {
            unit = "x";
        }
        StringBuilder b = new StringBuilder(LogLines.MAX_LINE);
        while (b.length() + unit.length() <= LogLines.MAX_LINE) {
            b.append(unit);
        }
        return b.toString();
    }

    /** A line that counts how many characters are read of it. */
    private static final class Counting implements CharSequence {
        private final String s;
        long reads;

        Counting(String s) {
            this.s = s;
        }

        @Override
        public int length() {
            return s.length();
        }

        @Override
        public char charAt(int i) {
            reads++;
            return s.charAt(i);
        }

        @Override
        public CharSequence subSequence(int from, int to) {
            return s.subSequence(from, to);
        }

        @Override
        public String toString() {
            return s;
        }
    }
}
