package io.gpuforge.testing;

import io.gpuforge.app.words.Words;
import io.gpuforge.domain.message.Message;
import java.util.List;
import java.util.Locale;

/** What the engines say, in English, as the command prints it: for tests that read a plan's notes. */
public final class English {

    private static final Words ENGLISH = new Words(Locale.ENGLISH);

    private English() {
    }

    public static List<String> english(List<Message> messages) {
        return messages.stream().map(ENGLISH::text).toList();
    }
}
