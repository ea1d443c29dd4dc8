package io.gpuforge.diagnose;

import io.gpuforge.domain.diagnose.LogSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A log's lines as people paste them, made comparable: typographic quotes and dashes made plain, Markdown's
 * backticks and quote marks dropped, a literal {@code \n} inside a quoted message made a space, runs of blanks made
 * one, all lower case. Each line keeps its number and its text as written, for the evidence.
 */
final class LogLines {

    /** Longer lines are cut for matching (a Proxmox {@code TASK ERROR} carries the whole QEMU command line). */
    static final int MAX_LINE = 16_384;

    private static final Pattern BLANKS = Pattern.compile("\\s+");
    private static final Pattern QUOTE_MARK = Pattern.compile("^(>\\s*)+");

    /** One line: its number (from 1), its text as written, and the text compared against signatures. */
    record Line(String input, LogSource source, int number, String text, String plain) {
    }

    private LogLines() {
    }

    static List<Line> of(String input, LogSource source, String text) {
        List<Line> lines = new ArrayList<>();
        int n = 0;
        for (String raw : text.split("\r\n|\r|\n", -1)) {
            n++;
            String cut = raw.length() > MAX_LINE ? raw.substring(0, MAX_LINE) : raw;
            String plain = plain(cut);
            if (!plain.isEmpty()) {
                lines.add(new Line(input, source, n, cut.strip(), plain));
            }
        }
        return lines;
    }

    /** The comparable form of one line. */
    static String plain(String raw) {
        StringBuilder b = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            switch (c) {
                case '\u2018', '\u2019', '\u201a', '\u201b', '\u2032', '\u00b4', '\uff07' -> b.append('\'');
                case '\u201c', '\u201d', '\u201e', '\u2033', '\uff02' -> b.append('"');
                case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212' -> b.append('-');
                case '\uff1a' -> b.append(':');
                case '\uff0c' -> b.append(',');
                case '\uff08' -> b.append('(');
                case '\uff09' -> b.append(')');
                case '\u00a0', '\u3000', '\t' -> b.append(' ');
                case '`' -> b.append(' ');
                case '\\' -> {
                    if (i + 1 < raw.length() && (raw.charAt(i + 1) == 'n' || raw.charAt(i + 1) == 't')) {
                        b.append(' ');
                        i++;
                    } else {
                        b.append(c);
                    }
                }
                default -> b.append(c);
            }
        }
        String s = QUOTE_MARK.matcher(b.toString().strip()).replaceFirst("");
        return BLANKS.matcher(s).replaceAll(" ").strip().toLowerCase(Locale.ROOT);
    }

    /** The line as shown in evidence: whole when short, else a window around {@code at} (an index in its text). */
    static String shown(Line line, int at) {
        String t = line.text();
        int max = 400;
        if (t.length() <= max) {
            return t;
        }
        int from = Math.max(0, Math.min(at - 150, t.length() - max));
        return (from > 0 ? "…" : "") + t.substring(from, Math.min(t.length(), from + max)).strip()
                + (from + max < t.length() ? "…" : "");
    }
}
