package io.gpuforge.telemetry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), for exporters' scrapes: {@code # HELP}
 * and {@code # TYPE} lines (optional), other comments, and samples {@code name{label="value",…} value [timestamp]}
 * with the format's escapes ({@code \\}, {@code \"}, {@code \n}) and {@code NaN}, {@code +Inf}, {@code -Inf}. Anything
 * else is an error naming the line and what was wrong. Bounded: at most {@link #MAX_LINES} lines and
 * {@link #MAX_LABELS} labels per sample. (No well-kept Java parser of the format exists on Maven Central: the official
 * client writes it but does not read it.)
 */
public final class PrometheusText {

    public static final int MAX_LINES = 200_000;
    public static final int MAX_LABELS = 64;

    /** One sample line. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    /** The text is not valid exposition format. */
    public static final class ParseException extends Exception {
        private static final long serialVersionUID = 1L;

        ParseException(int line, String message) {
            super("line " + line + ": " + message);
        }
    }

    private PrometheusText() {
    }

    public static List<Sample> parse(String text) throws ParseException {
        List<Sample> out = new ArrayList<>();
        int lineNo = 0;
        int start = 0;
        int len = text.length();
        while (start < len) {
            int end = text.indexOf('\n', start);
            if (end < 0) {
                end = len;
            }
            lineNo++;
            if (lineNo > MAX_LINES) {
                throw new ParseException(lineNo, "more than " + MAX_LINES + " lines");
            }
            String line = text.substring(start, end);
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            start = end + 1;
            String t = line.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (t.startsWith("#")) {
                comment(t, lineNo);
                continue;
            }
            out.add(new Cursor(t, lineNo).sample());
        }
        return out;
    }

    private static void comment(String t, int lineNo) throws ParseException {
        String[] p = t.substring(1).strip().split("\\s+", 3);
        if (p.length >= 1 && p[0].equals("TYPE")) {
            if (p.length < 3 || !validName(p[1])) {
                throw new ParseException(lineNo, "a TYPE line needs a metric name and a type");
            }
            String type = p[2].strip();
            if (!List.of("counter", "gauge", "histogram", "summary", "untyped").contains(type)) {
                throw new ParseException(lineNo, "unknown metric type '" + type + "'");
            }
        } else if (p.length >= 1 && p[0].equals("HELP")) {
            if (p.length < 2 || !validName(p[1])) {
                throw new ParseException(lineNo, "a HELP line needs a metric name");
            }
        }
    }

    static boolean validName(String n) {
        if (n.isEmpty()) {
            return false;
        }
        for (int i = 0; i < n.length(); i++) {
            char c = n.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || i > 0 && c >= '0' && c <= '9';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Reads one sample line. */
    private static final class Cursor {
        private final String s;
        private final int lineNo;
        private int p;

        Cursor(String s, int lineNo) {
            this.s = s;
            this.lineNo = lineNo;
        }

        Sample sample() throws ParseException {
            String name = name(true);
            Map<String, String> labels = new LinkedHashMap<>();
            int afterName = p;
            spaces();
            if (p < s.length() && s.charAt(p) == '{') {
                p++;
                spaces();
                while (p < s.length() && s.charAt(p) != '}') {
                    if (labels.size() >= MAX_LABELS) {
                        throw error("more than " + MAX_LABELS + " labels");
                    }
                    String key = name(false);
                    spaces();
                    expect('=');
                    spaces();
                    String value = quoted();
                    if (labels.put(key, value) != null) {
                        throw error("label '" + key + "' given twice");
                    }
                    spaces();
                    if (p < s.length() && s.charAt(p) == ',') {
                        p++;
                        spaces();
                    } else if (p >= s.length() || s.charAt(p) != '}') {
                        throw error("expected ',' or '}' after a label");
                    }
                }
                expect('}');
                afterName = p;
                spaces();
            }
            if (p == afterName || p >= s.length()) {
                throw error("expected a space and the value after '" + name + "'");
            }
            String[] rest = s.substring(p).strip().split("[ \\t]+");
            if (rest.length == 0 || rest[0].isEmpty() || rest.length > 2) {
                throw error("expected a value and an optional timestamp");
            }
            double v = value(rest[0]);
            if (rest.length == 2) {
                try {
                    Long.parseLong(rest[1]);
                } catch (NumberFormatException e) {
                    throw error("the timestamp '" + rest[1] + "' is not a whole number of milliseconds");
                }
            }
            return new Sample(name, Collections.unmodifiableMap(labels), v);
        }

        private double value(String v) throws ParseException {
            switch (v) {
                case "NaN":
                    return Double.NaN;
                case "+Inf":
                    return Double.POSITIVE_INFINITY;
                case "-Inf":
                    return Double.NEGATIVE_INFINITY;
                default:
                    if (!v.matches("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?")) {
                        throw error("'" + v + "' is not a number");
                    }
                    return Double.parseDouble(v);
            }
        }

        private String name(boolean metric) throws ParseException {
            int b = p;
            while (p < s.length()) {
                char c = s.charAt(p);
                boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || metric && c == ':'
                        || p > b && c >= '0' && c <= '9';
                if (!ok) {
                    break;
                }
                p++;
            }
            if (p == b) {
                throw error(metric ? "expected a metric name" : "expected a label name");
            }
            return s.substring(b, p);
        }

        private String quoted() throws ParseException {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                if (p >= s.length()) {
                    throw error("a label value is not closed with '\"'");
                }
                char c = s.charAt(p++);
                if (c == '"') {
                    return out.toString();
                }
                if (c == '\\') {
                    if (p >= s.length()) {
                        throw error("a label value ends with a lone '\\'");
                    }
                    char e = s.charAt(p++);
                    if (e == 'n') {
                        out.append('\n');
                    } else if (e == '\\' || e == '"') {
                        out.append(e);
                    } else {
                        throw error("unknown escape '\\" + e + "' in a label value");
                    }
                } else {
                    out.append(c);
                }
            }
        }

        private void spaces() {
            while (p < s.length() && (s.charAt(p) == ' ' || s.charAt(p) == '\t')) {
                p++;
            }
        }

        private void expect(char c) throws ParseException {
            if (p >= s.length() || s.charAt(p) != c) {
                throw error("expected '" + c + "'");
            }
            p++;
        }

        private ParseException error(String m) {
            return new ParseException(lineNo, m + " in '" + (s.length() > 120 ? s.substring(0, 120) + "…" : s) + "'");
        }
    }
}
