package io.gpuforge.app.diagnose;

import io.gpuforge.app.words.Words;
import io.gpuforge.domain.message.Message;
import java.io.IOException;
import java.util.Locale;

/** A log that is not a readable text log, with why in words ({@link #problem()}); its message is the English. */
public final class UnreadableLog extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Message problem;

    UnreadableLog(Message problem) {
        super(new Words(Locale.ENGLISH).text(problem));
        this.problem = problem;
    }

    public Message problem() {
        return problem;
    }
}
