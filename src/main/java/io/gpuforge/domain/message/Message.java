package io.gpuforge.domain.message;

import java.text.MessageFormat;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Words an engine says to the user, not yet in any language: a key of a message bundle and the arguments that fill
 * it. The window and the command render it in the user's language; the engine never writes a sentence itself.
 *
 * <p>An argument is a fact ({@link String}, {@link Number}), another message (a part that differs with the case: "the
 * device at 0000:01:00.0" or "the GPU"), or a list of messages, which the renderer joins in its language.
 */
public record Message(String key, List<Object> args) {

    /** The key of the text between the items of a list argument ("; " in English). */
    public static final String SEPARATOR = "separator";

    public Message {
        Objects.requireNonNull(key);
        args = args.stream().map(Message::checked).toList();
    }

    public static Message of(String key, Object... args) {
        return new Message(key, Arrays.asList(args));
    }

    /**
     * The message in words: its pattern from {@code patterns} ({@link MessageFormat}, so an apostrophe is written
     * {@code ''}), its message arguments rendered first, a list's items joined by the pattern of {@code separator};
     * a part left empty in some case is trimmed away with the blank before it. A key without a pattern shows as
     * {@code !key!}.
     */
    public String format(Locale locale, Function<String, Optional<String>> patterns) {
        Optional<String> pattern = patterns.apply(key);
        if (pattern.isEmpty()) {
            return "!" + key + "!";
        }
        Object[] filled = args.stream().map(a -> {
            if (a instanceof Message m) {
                return m.format(locale, patterns);
            }
            if (a instanceof List<?> list) {
                String separator = patterns.apply(SEPARATOR).orElse(", ");
                return list.stream().map(x -> ((Message) x).format(locale, patterns))
                        .collect(Collectors.joining(separator));
            }
            return a;
        }).toArray();
        return new MessageFormat(pattern.get(), locale).format(filled).strip();
    }

    private static Object checked(Object arg) {
        Objects.requireNonNull(arg, "a message argument");
        if (arg instanceof List<?> list) {
            list.forEach(a -> {
                if (!(a instanceof Message)) {
                    throw new IllegalArgumentException("a list argument holds messages, not " + a.getClass());
                }
            });
            return List.copyOf(list);
        }
        if (arg instanceof String || arg instanceof Number || arg instanceof Message) {
            return arg;
        }
        throw new IllegalArgumentException("a message argument is a String, a Number, a Message or a list of them,"
                + " not " + arg.getClass());
    }
}
