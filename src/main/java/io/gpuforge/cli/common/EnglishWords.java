package io.gpuforge.cli.common;

import io.gpuforge.app.words.Words;
import io.gpuforge.domain.message.Message;
import java.util.List;
import java.util.Locale;

/**
 * What the engines say, in the command's language (English: its output is read by people and scripts alike): a
 * diagnosis's words and the notes of a plan (passthrough, sharing, fixes).
 */
public final class EnglishWords {

    private static final Words ENGLISH = new Words(Locale.ENGLISH);

    private EnglishWords() {
    }

    public static String of(Message m) {
        return ENGLISH.text(m);
    }

    public static List<String> of(List<Message> messages) {
        return messages.stream().map(EnglishWords::of).toList();
    }
}
