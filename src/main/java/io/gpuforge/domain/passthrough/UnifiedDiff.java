package io.gpuforge.domain.passthrough;

import java.util.ArrayList;
import java.util.List;

/** A unified diff ({@code diff -u}) of two texts, with three lines of context. */
public final class UnifiedDiff {

    private static final int CONTEXT = 3;

    private UnifiedDiff() {
    }

    private static List<String> lines(String s) {
        List<String> out = new ArrayList<>();
        if (s == null || s.isEmpty()) {
            return out;
        }
        String[] parts = s.split("\n", -1);
        for (int i = 0; i < parts.length; i++) {
            if (i == parts.length - 1 && parts[i].isEmpty()) {
                break;
            }
            out.add(parts[i]);
        }
        return out;
    }

    /** @param before null for a new file */
    public static String of(String path, String before, String after) {
        List<String> a = lines(before);
        List<String> b = lines(after);
        int n = a.size();
        int m = b.size();
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        // edit script: ' ' keep, '-' delete, '+' insert, with positions in a and b
        List<char[]> ops = new ArrayList<>();
        List<String> text = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a.get(i).equals(b.get(j))) {
                ops.add(new char[] {' '});
                text.add(a.get(i));
                i++;
                j++;
            } else if (j < m && (i == n || lcs[i][j + 1] > lcs[i + 1][j])) {
                ops.add(new char[] {'+'});
                text.add(b.get(j));
                j++;
            } else {
                ops.add(new char[] {'-'});
                text.add(a.get(i));
                i++;
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("--- ").append(before == null ? "/dev/null" : "a" + path).append('\n');
        out.append("+++ b").append(path).append('\n');
        int k = 0;
        int lineA = 1;
        int lineB = 1;
        while (k < ops.size()) {
            if (ops.get(k)[0] == ' ') {
                k++;
                lineA++;
                lineB++;
                continue;
            }
            int start = Math.max(0, k - CONTEXT);
            int end = k;
            int lastChange = k;
            while (end < ops.size()) {
                if (ops.get(end)[0] != ' ') {
                    lastChange = end;
                } else if (end - lastChange > 2 * CONTEXT) {
                    break;
                }
                end++;
            }
            end = Math.min(ops.size(), lastChange + CONTEXT + 1);
            int startA = lineA - (k - start);
            int startB = lineB - (k - start);
            int countA = 0;
            int countB = 0;
            StringBuilder hunk = new StringBuilder();
            for (int x = start; x < end; x++) {
                char op = ops.get(x)[0];
                hunk.append(op).append(text.get(x)).append('\n');
                if (op != '+') {
                    countA++;
                }
                if (op != '-') {
                    countB++;
                }
            }
            out.append("@@ -").append(countA == 0 ? startA - 1 : startA).append(',').append(countA)
                    .append(" +").append(countB == 0 ? startB - 1 : startB).append(',').append(countB).append(" @@\n");
            out.append(hunk);
            for (int x = k; x < end; x++) {
                char op = ops.get(x)[0];
                if (op != '+') {
                    lineA++;
                }
                if (op != '-') {
                    lineB++;
                }
            }
            k = end;
        }
        return out.toString();
    }
}
