package io.gpuforge.boot;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Holds Logback's configuration until the window's first frame is on the screen. Reading {@code logback.xml} (its XML
 * parser, the rolling policy's calendars, the locale and time-zone data: some 1,300 classes and 0.1 s of processor
 * time) otherwise took one of two cores from the toolkit's start. The window's launcher asks for it with
 * {@link #hold()} and starts the configuration on its logging thread at once, so SLF4J is "initialising" from then
 * on: every logger handed out meanwhile records what it is given, and SLF4J replays that once the configuration has
 * run (Logback writes a replayed line with the time and thread of the replay; the first-frame line says its own
 * time). Found by Logback through {@code META-INF/services}; it configures nothing itself, and Logback's own
 * configurators (the shipped or the admin's {@code logback.xml}) run after it as before. Not held (the
 * {@code gpuforge} command, tests), or run by any other thread than the held one: it returns at once.
 */
public final class HeldLogConfiguration extends ContextAwareBase implements Configurator {

    /** The longest the configuration waits for the first frame (a start that never shows one still logs). */
    static final long LONGEST_HOLD_MS = 10_000;
    /** Logback makes this class itself, from the service file, so the window reaches it here. */
    private static final AtomicReference<Gate> GATE = new AtomicReference<>();

    /** Who waits (the logging thread) and for what. */
    private record Gate(Thread waiter, CompletableFuture<Void> released) {
    }

    /**
     * The configuration waits for {@link #release()} when {@code logging} runs it; before that thread starts. Any
     * other thread that happens to ask for the first logger before it (the FX thread, the one reading the settings)
     * configures at once instead of waiting for a first frame that itself might wait on that thread.
     */
    static void hold(Thread logging) {
        GATE.set(new Gate(logging, new CompletableFuture<>()));
    }

    /** The first frame is on the screen (or the start ended): Logback configures now. */
    static void release() {
        Gate gate = GATE.get();
        if (gate != null) {
            gate.released().complete(null);
        }
    }

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        Gate gate = GATE.get();
        if (gate != null && gate.waiter() == Thread.currentThread()) {
            try {
                gate.released().get(LONGEST_HOLD_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                addWarn("no first frame after " + LONGEST_HOLD_MS + " ms: configured without it");
            }
        }
        return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
}
