package io.gpuforge.domain;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Words an engine says to the user, not yet in any language: a key of a message bundle and the arguments that fill
 * it. The window and the command render it in the user's language; the engine never writes a sentence itself.
 *
 * <p>An argument is a fact ({@link String}, {@link Number}), another message (a part that differs with the case: "the
 * device at 0000:01:00.0" or "the GPU"), or a list of messages, which the renderer joins in its language.
 */
public record Message(String key, List<Object> args) {

    public Message {
        Objects.requireNonNull(key);
        args = args.stream().map(Message::checked).toList();
    }

    public static Message of(String key, Object... args) {
        return new Message(key, Arrays.asList(args));
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
