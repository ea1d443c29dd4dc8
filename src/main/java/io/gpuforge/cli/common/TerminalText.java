package io.gpuforge.cli.common;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.PrintWriter;
import java.io.Writer;

/**
 * Text for a terminal that a host may have written (file contents, device names, stderr): every
 * character a terminal acts on instead of showing (C0 controls except newline and tab, DEL, C1
 * controls, and the bidirectional overrides and isolates that reorder what is shown) is written as a
 * visible escape, {@code \x1b} or {@code \u202e}. A carriage return directly before a newline stays.
 */
public final class TerminalText {

    private TerminalText() {
    }

    /** True for a character the terminal must not receive as is. */
    static boolean unsafe(char c) {
        return c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f && c <= 0x9f || isBidiControl(c);
    }

    private static boolean isBidiControl(char c) {
        return c == '\u061c' || c == '\u200e' || c == '\u200f' || c >= '\u202a' && c <= '\u202e'
                || c >= '\u2066' && c <= '\u2069';
    }

    /** {@code s} with every unsafe character escaped; {@code s} itself when there is none. */
    public static String escape(CharSequence s) {
        int n = s.length();
        int first = -1;
        for (int i = 0; i < n; i++) {
            if (unsafeAt(s, i)) {
                first = i;
                break;
            }
        }
        if (first < 0) {
            return s.toString();
        }
        StringBuilder b = new StringBuilder(n + 16).append(s, 0, first);
        for (int i = first; i < n; i++) {
            char c = s.charAt(i);
            if (!unsafeAt(s, i)) {
                b.append(c);
            } else if (c <= 0xff) {
                b.append("\\x").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xf, 16));
            } else {
                b.append(String.format("\\u%04x", (int) c));
            }
        }
        return b.toString();
    }

    private static boolean unsafeAt(CharSequence s, int i) {
        char c = s.charAt(i);
        return unsafe(c) && !(c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n');
    }

    /**
     * A writer that escapes everything written to it; line ends from {@code println} go through as
     * they are.
     */
    static final class SafeWriter extends PrintWriter {

        SafeWriter(Writer target, boolean autoFlush) {
            super(target, autoFlush);
        }

        @Override
        public void write(int c) {
            String s = escape(String.valueOf((char) c));
            super.write(s, 0, s.length());
        }

        @Override
        public void write(char[] buf, int off, int len) {
            String s = escape(new String(buf, off, len));
            super.write(s, 0, s.length());
        }

        @Override
        public void write(String str, int off, int len) {
            String s = escape(str.substring(off, off + len));
            super.write(s, 0, s.length());
        }
    }

    /**
     * Jackson escapes for JSON output: besides what JSON requires (C0), also DEL, C1 and the bidi
     * controls as {@code \\uXXXX}, so the JSON stays valid and reads back to the same strings.
     */
    static final class JsonEscapes extends CharacterEscapes {

        private static final long serialVersionUID = 1L;
        private final int[] ascii;

        JsonEscapes() {
            ascii = CharacterEscapes.standardAsciiEscapesForJSON();
            ascii[0x7f] = CharacterEscapes.ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            if (ch <= 0xffff && unsafe((char) ch)) {
                return new SerializedString(String.format("\\u%04X", ch));
            }
            return null;
        }
    }
}
