package io.gpuforge.host.listing;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One pasted line with what forums and terminals put around it taken off: terminal colour codes, odd
 * spaces, BBCode/HTML code tags, pastebin or {@code cat -n} line numbers, quote marks, and the tree or
 * list drawing before the text.
 *
 * @param number 1-based line number in the input
 * @param text the line as pasted, without colour codes and control characters (for showing it)
 * @param content the text that carries meaning: drawing, indentation and trailing emphasis removed
 * @param indent width of the indentation and drawing before the content (a tab counts 4)
 * @param tree whether that prefix holds tree or list drawing ({@code ├──}, {@code |--}, {@code -})
 */
public record ListingLine(int number, String text, String content, int indent, boolean tree) {

    private static final Pattern ANSI = Pattern.compile(
            "\u001b\\[[0-9;?]*[ -/]*[@-~]|\u001b\\][^\u0007\u001b]*(?:\u0007|\u001b\\\\)?|\u001b[@-Z\\\\-_]");
    private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]");
    private static final Pattern WIDE_SPACE = Pattern.compile("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]");
    private static final Pattern INVISIBLE = Pattern.compile("[\u200b-\u200d\u2060\ufeff]");
    private static final Pattern TAGS = Pattern.compile(
            "\\[/?(?:code|icode|quote|spoiler|pre|plain|php|bash|shell)(?:=[^\\]]*)?\\]|</?(?:pre|code|samp|kbd|tt)>",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern NUMBERED = Pattern.compile("^\\s*\\d{1,6}(?:\\s*[|│]\\s?|\\t)");
    private static final Pattern QUOTE = Pattern.compile("^\\s*(?:>\\s?)+");
    private static final Pattern DECORATION = Pattern.compile("^[\\s\u2500-\u257f|`+*•·\\\\-]+");
    private static final Pattern TREE_CHAR = Pattern.compile("[\u2500-\u257f|`+*•·\\\\-]");
    private static final Pattern TRAILING = Pattern.compile("[\\s*`]+$");

    static ListingLine of(int number, String raw) {
        String text = CONTROL.matcher(ANSI.matcher(raw).replaceAll("")).replaceAll("");
        String body = INVISIBLE.matcher(WIDE_SPACE.matcher(text).replaceAll(" ")).replaceAll("");
        body = TAGS.matcher(body).replaceAll("");
        body = NUMBERED.matcher(body).replaceFirst("");
        body = QUOTE.matcher(body).replaceFirst("");
        if (body.strip().startsWith("```")) {
            return new ListingLine(number, text, body.strip(), 0, false); // a Markdown fence, not tree drawing
        }
        Matcher prefix = DECORATION.matcher(body);
        String lead = prefix.find() ? prefix.group() : "";
        int indent = 0;
        for (int i = 0; i < lead.length(); i++) {
            indent += lead.charAt(i) == '\t' ? 4 : 1;
        }
        String content = TRAILING.matcher(body.substring(lead.length())).replaceFirst("");
        return new ListingLine(number, text, content, indent, TREE_CHAR.matcher(lead).find());
    }

    boolean blank() {
        return content.isEmpty();
    }
}
