package io.gpuforge.diagnose;

import io.gpuforge.domain.diagnose.LogSource;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A log's lines as people paste them, made comparable: typographic quotes and dashes made plain, Markdown's
 * backticks and quote marks dropped, a literal {@code \n} inside a quoted message made a space, runs of blanks made
 * one, all lower case. Each line keeps its number and its text as written, for the evidence.
 */
final class LogLines {

    /** Longer lines are cut for matching (a Proxmox {@code TASK ERROR} carries the whole QEMU command line). */
    static final int MAX_LINE = 16_384;


    /**
     * What a person or a collecting tool writes around a log rather than the log itself: a note (a shell or Markdown
     * comment or heading, a Markdown fence, a banner: {@code ===== dmesg =====}, {@code --- issue #1 ---},
     * {@code ==> /var/log/syslog <==}) or a command typed after a prompt ({@code root@pve:~# dmesg | grep D3},
     * {@code $ nvidia-smi}, {@code [root@node ~]# …}, {@code PS C:\> …}); each maybe behind Markdown quote marks.
     */
    enum Context {
        /** The log's own line. */
        NONE,
        /** A note about the log: says nothing of the log, not even whose it is. */
        NOTE,
        /** A typed command: not evidence, but what was run says what kind of output follows. */
        COMMAND
    }

    private static final Pattern NOTE = Pattern.compile("^(?:>\\s*)*(?:#|```|~~~|={3,}|-{3,}|\\*{3,}|\\+{3,}|_{3,}"
            + "|==> .* <==$)");
    private static final Pattern COMMAND = Pattern.compile("^(?:>\\s*)*(?:[\\w.-]+@[\\w.-]+(?::[^\\s#$]*)?\\s?[#$%]"
            + "(?:\\s|$)|\\[[\\w.-]+@[\\w.-]+ [^\\]]*\\][#$](?:\\s|$)|\\$(?:\\s|$)|ps [a-z]:\\\\[^>]*>\\s)",
            Pattern.CASE_INSENSITIVE);

    /**
     * One line: its number (from 1), its text as written, the text compared against signatures, and whether it is
     * context ({@link Context}), shown but never evidence.
     */
    record Line(String input, LogSource source, int number, String text, String plain, Context context) {

        Line(String input, LogSource source, int number, String text, String plain) {
            this(input, source, number, text, plain, LogLines.context(text));
        }

        Line from(LogSource of) {
            return new Line(input, of, number, text, plain, context);
        }

        /** Context, never evidence: a note or a typed command. */
        boolean comment() {
            return context != Context.NONE;
        }

        /** A note about the log, which says nothing of what kind of log it is or whose. */
        boolean note() {
            return context == Context.NOTE;
        }
    }

    /**
     * A line a program wrote (a timestamp, a driver and its device, an lspci field, a task log's verdict) rather than
     * a person.
     */
    private static final Pattern WRITTEN = Pattern.compile("^\\[|^\\w{3} +\\d+ [\\d:]+ |^\\d{4}-\\d\\d-\\d\\d"
            + "|[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]|^kernel driver in use:|^[a-z0-9_-]+: |^task error:");

    private LogLines() {
    }

    /** What kind of context a line is, if any; the patterns run only where their first mark is. */
    static Context context(String text) {
        if (text.isEmpty()) {
            return Context.NONE;
        }
        char c = text.charAt(0);
        if ("#`~=-*+_>".indexOf(c) >= 0 && NOTE.matcher(text).find()) {
            return Context.NOTE;
        }
        if ((c == '$' || c == '>' || c == 'p' || c == 'P' || text.indexOf('@') >= 0) && COMMAND.matcher(text).find()) {
            return Context.COMMAND;
        }
        return Context.NONE;
    }

    /** Whether a program wrote the line, rather than a person describing what they saw. */
    static boolean written(Line line) {
        return WRITTEN.matcher(line.plain()).find();
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
        boolean blank = false;
        boolean start = true;
        for (int i = 0; i < raw.length(); i++) {
            char c = plainChar(raw.charAt(i));
            if (c == '\\' && i + 1 < raw.length() && (raw.charAt(i + 1) == 'n' || raw.charAt(i + 1) == 't')) {
                c = ' ';
                i++;
            }
            if (c == ' ' || Character.isWhitespace(c)) {
                blank = true;
                continue;
            }
            if (start && c == '>') {
                // a Markdown or e-mail quote mark before the text
                continue;
            }
            if (blank && !start) {
                b.append(' ');
            }
            blank = false;
            start = false;
            b.append(Character.toLowerCase(c));
        }
        return b.toString();
    }

    private static char plainChar(char c) {
        return switch (c) {
            case '\u2018', '\u2019', '\u201a', '\u201b', '\u2032', '\u00b4', '\uff07' -> '\'';
            case '\u201c', '\u201d', '\u201e', '\u2033', '\uff02' -> '"';
            case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212' -> '-';
            case '\uff1a' -> ':';
            case '\uff0c' -> ',';
            case '\uff08' -> '(';
            case '\uff09' -> ')';
            case '\u00a0', '\u3000', '\t', '`' -> ' ';
            default -> c;
        };
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
