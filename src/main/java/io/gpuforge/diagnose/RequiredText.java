package io.gpuforge.diagnose;

import java.util.Optional;

/**
 * The longest piece of plain text every match of a signature's pattern must contain, read from the pattern itself:
 * a line without it cannot match, so the pattern is not run on it (most lines of a 10,000-line kernel log match
 * none of the signatures; {@link String#contains} is far cheaper than a regex search). Only what is certainly
 * required counts: text outside groups and character classes, not followed by {@code ?}, {@code *} or
 * {@code {0,…}}; a pattern with {@code |} outside groups has none.
 */
final class RequiredText {

    /** Shorter pieces are not worth the check. */
    private static final int MIN = 3;

    private RequiredText() {
    }

    static Optional<String> of(String regex) {
        String best = "";
        StringBuilder run = new StringBuilder();
        int depth = 0;
        boolean inClass = false;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (inClass) {
                if (c == '\\') {
                    i++;
                } else if (c == ']') {
                    inClass = false;
                }
                continue;
            }
            if (c == '\\' && i + 1 < regex.length()) {
                char e = regex.charAt(i + 1);
                i++;
                if (depth == 0 && !Character.isLetterOrDigit(e)) {
                    run.append(e);
                    continue;
                }
                best = longer(best, run);
                run.setLength(0);
                continue;
            }
            switch (c) {
                case '(' -> {
                    if (depth == 0) {
                        best = longer(best, run);
                        run.setLength(0);
                    }
                    depth++;
                }
                case ')' -> depth--;
                case '[' -> {
                    if (depth == 0) {
                        best = longer(best, run);
                        run.setLength(0);
                    }
                    inClass = true;
                }
                case '|' -> {
                    if (depth == 0) {
                        return Optional.empty();
                    }
                }
                case '?', '*' -> {
                    if (depth == 0 && run.length() > 0) {
                        run.setLength(run.length() - 1);
                    }
                    if (depth == 0) {
                        best = longer(best, run);
                        run.setLength(0);
                    }
                }
                case '{' -> {
                    if (depth == 0) {
                        if (regex.startsWith("{0", i) && run.length() > 0) {
                            run.setLength(run.length() - 1);
                        }
                        best = longer(best, run);
                        run.setLength(0);
                    }
                    int close = regex.indexOf('}', i);
                    i = close < 0 ? regex.length() : close;
                }
                case '+', '.', '^', '$' -> {
                    if (depth == 0) {
                        best = longer(best, run);
                        run.setLength(0);
                    }
                }
                default -> {
                    if (depth == 0) {
                        run.append(c);
                    }
                }
            }
        }
        best = longer(best, run);
        return best.length() >= MIN ? Optional.of(best) : Optional.empty();
    }

    private static String longer(String best, CharSequence run) {
        return run.length() > best.length() ? run.toString() : best;
    }
}
