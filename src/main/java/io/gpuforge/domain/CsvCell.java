package io.gpuforge.domain;

/**
 * One cell of a CSV file GPUForge writes (the task log, the energy and cost report), safe to open in a spreadsheet:
 * a cell that starts with one of OWASP's formula characters ({@code = + - @}, tab, carriage return) is written as text
 * (a leading {@code '}), except a plain number such as {@code -42}; a cell with a comma, a quote or a line break is
 * quoted (RFC 4180).
 */
public final class CsvCell {

    private static final String FORMULA_START = "=+-@\t\r";

    private CsvCell() {
    }

    public static String of(String v) {
        String safe = !v.isEmpty() && FORMULA_START.indexOf(v.charAt(0)) >= 0 && !v.matches("-?\\d+(\\.\\d+)?")
                ? "'" + v : v;
        if (safe.contains(",") || safe.contains("\"") || safe.contains("\n") || safe.contains("\r")) {
            return "\"" + safe.replace("\"", "\"\"") + "\"";
        }
        return safe;
    }
}
