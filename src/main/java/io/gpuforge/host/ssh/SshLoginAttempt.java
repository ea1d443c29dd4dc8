package io.gpuforge.host.ssh;

import io.gpuforge.host.ssh.SshHops.Hop;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.sshd.client.auth.keyboard.UserInteraction;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.session.SessionContext;

/**
 * What happens during one SSH login, and the answers it needs: the passphrase of each encrypted key (the one given,
 * then asked up to three times, as {@code ssh} does), passwords asked when the server wants one, and a record of what
 * was tried and what went wrong with which key, so a failed login says "this key could not be decrypted" instead of
 * "the server said no". Knows while someone is being asked, so that time does not count as the login hanging.
 */
public final class SshLoginAttempt implements FilePasswordProvider, UserInteraction, SshAgentSocket.Factory.UnreachableAgent {

    static final int ASKS = 3;

    /** What went wrong with a key file. */
    enum KeyTrouble { NO_PASSPHRASE, WRONG_PASSPHRASE, MISSING, UNREADABLE, UNPROTECTED }

    record KeyProblem(Path key, KeyTrouble trouble, String detail) {
    }

    /** Where a key's passphrase came from, and how it went. */
    private static final class KeyState {
        boolean fromPrompt;
        boolean wrong;
        boolean cancelled;
        int asked;
        char[] typed;
    }

    private final SshPrompts prompts;
    private final Optional<char[]> given;
    private final Function<SessionContext, Optional<Hop>> hops;
    private final Map<Path, KeyState> keys = new ConcurrentHashMap<>();
    private final Map<String, Integer> passwordsAsked = new ConcurrentHashMap<>();
    private final List<KeyProblem> problems = new CopyOnWriteArrayList<>();
    private final List<String> tried = new CopyOnWriteArrayList<>();
    private final AtomicInteger asking = new AtomicInteger();
    private volatile long lastAnswer = System.nanoTime();

    /** @param given a passphrase to try first on every encrypted key (the command line's, a remembered one) */
    SshLoginAttempt(SshPrompts prompts, Optional<char[]> given, Function<SessionContext, Optional<Hop>> hops) {
        this.prompts = prompts;
        this.given = given;
        this.hops = hops;
    }

    SshPrompts prompts() {
        return prompts;
    }

    /** Runs a question to the user, so that the time spent answering is known. */
    <T> T asking(Supplier<T> question) {
        asking.incrementAndGet();
        try {
            return question.get();
        } finally {
            lastAnswer = System.nanoTime();
            asking.decrementAndGet();
        }
    }

    /** Whether someone is being asked right now. */
    boolean busyAsking() {
        return asking.get() > 0;
    }

    /** {@link System#nanoTime} of the last answer (or of the start). */
    long lastAnswer() {
        return lastAnswer;
    }

    @Override
    public String getPassword(SessionContext session, NamedResource resourceKey, int retryIndex) throws IOException {
        Path key = Path.of(resourceKey.getName());
        KeyState st = keys.computeIfAbsent(key, k -> new KeyState());
        if (retryIndex == 0 && given.isPresent()) {
            st.fromPrompt = false;
            return new String(given.get());
        }
        if (!prompts.canAsk() || st.cancelled || st.asked >= ASKS) {
            return null;
        }
        boolean again = st.wrong;
        Optional<char[]> answer = asking(() -> prompts.passphrase(key, again));
        if (answer.isEmpty() || answer.get().length == 0) {
            st.cancelled = true;
            return null;
        }
        st.asked++;
        st.fromPrompt = true;
        wipe(st.typed);
        st.typed = answer.get().clone();
        Arrays.fill(answer.get(), '\0');
        return new String(st.typed);
    }

    @Override
    public ResourceDecodeResult handleDecodeAttemptResult(SessionContext session, NamedResource resourceKey,
                                                          int retryIndex, String password, Exception err) {
        Path key = Path.of(resourceKey.getName());
        KeyState st = keys.computeIfAbsent(key, k -> new KeyState());
        if (err == null) {
            if (st.fromPrompt && st.typed != null) {
                prompts.decrypted(key, st.typed);
            }
            wipe(st.typed);
            st.typed = null;
            return ResourceDecodeResult.TERMINATE;
        }
        st.wrong = true;
        return prompts.canAsk() && !st.cancelled && st.asked < ASKS ? ResourceDecodeResult.RETRY
                : ResourceDecodeResult.TERMINATE;
    }

    /** A key file was read (decrypted if it had to be) and is offered. */
    void loaded(Path key) {
        tried.add("the key " + key);
    }

    /** A key file named by the login or the config is not there. */
    void missing(Path key) {
        problems.add(new KeyProblem(key, KeyTrouble.MISSING, "there is no such file"));
    }

    /** A key file others can read: not used, as OpenSSH does not ({@code why} says so, with the fix). */
    void unprotected(Path key, String why) {
        problems.add(new KeyProblem(key, KeyTrouble.UNPROTECTED, why));
    }

    /** A key file could not be used; why is told apart from what was tried with its passphrase. */
    void failed(Path key, Exception e) {
        KeyState st = keys.get(key);
        KeyTrouble t = st == null ? KeyTrouble.UNREADABLE : st.wrong ? KeyTrouble.WRONG_PASSPHRASE
                : KeyTrouble.NO_PASSPHRASE;
        if (st != null) {
            wipe(st.typed);
            st.typed = null;
        }
        problems.add(new KeyProblem(key, t, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    }

    @Override
    public void unreachable(Path socket, IOException e) {
        tried.add("the SSH agent at " + socket + " (it did not answer: " + e.getMessage() + ")");
    }

    @Override
    public void listed(Path socket, int count) {
        tried.add("the SSH agent at " + socket + " (" + (count == 1 ? "1 key" : count + " keys") + ")");
    }

    List<KeyProblem> problems() {
        return List.copyOf(problems);
    }

    List<String> tried() {
        return List.copyOf(tried);
    }

    // ---- passwords (sshd's UserInteraction) ----

    @Override
    public boolean isInteractionAllowed(ClientSession session) {
        return prompts.canAsk();
    }

    @Override
    public String resolveAuthPasswordAttempt(ClientSession session) {
        return askPassword(session).orElse(null);
    }

    @Override
    public String[] interactive(ClientSession session, String name, String instruction, String lang,
                                String[] questions, boolean[] echo) {
        String[] answers = new String[questions == null ? 0 : questions.length];
        for (int i = 0; i < answers.length; i++) {
            if (echo != null && i < echo.length && echo[i]) {
                return null;
            }
            Optional<String> p = askPassword(session);
            if (p.isEmpty()) {
                return null;
            }
            answers[i] = p.get();
        }
        return answers;
    }

    @Override
    public String getUpdatedPassword(ClientSession session, String prompt, String lang) {
        return null;
    }

    private Optional<String> askPassword(ClientSession session) {
        String who = hops.apply(session).map(h -> h.target().toString())
                .orElse(session.getUsername() + "@" + session.getConnectAddress());
        int n = passwordsAsked.merge(who, 1, Integer::sum);
        if (!prompts.canAsk() || n > ASKS) {
            return Optional.empty();
        }
        Optional<char[]> answer = asking(() -> prompts.password(who, n > 1));
        if (answer.isEmpty() || answer.get().length == 0) {
            passwordsAsked.put(who, ASKS + 1);
            return Optional.empty();
        }
        tried.add("a password for " + who);
        String s = new String(answer.get());
        Arrays.fill(answer.get(), '\0');
        return Optional.of(s);
    }

    private static void wipe(char[] c) {
        if (c != null) {
            Arrays.fill(c, '\0');
        }
    }
}
