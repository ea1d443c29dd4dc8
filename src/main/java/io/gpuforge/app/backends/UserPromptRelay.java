package io.gpuforge.app.backends;

import java.util.Objects;
import java.util.Optional;

/**
 * The prompts the app's services ask through, made with the composition root before any window exists: the
 * window puts its dialogs in with {@link #use}, and takes them out when it closes. Until then nobody is asked.
 */
public final class UserPromptRelay implements UserPrompts {

    private volatile UserPrompts target = UserPrompts.none();

    /** From now on, questions go to {@code prompts}. */
    public void use(UserPrompts prompts) {
        target = Objects.requireNonNull(prompts);
    }

    /** Nobody is asked any more (the window closed). */
    public void clear() {
        target = UserPrompts.none();
    }

    @Override
    public Optional<String> oneTimeCode(String connection, String user) {
        return target.oneTimeCode(connection, user);
    }
}
