package io.gpuforge.ui.shell;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;

/**
 * Runs queued work on the FX thread one piece per pulse (frame), at the start of the pulse, so that the pulse's CSS
 * and layout pass follow each piece and nothing else of it waits. {@code Platform::runLater} would run a burst of
 * pieces back to back between two pulses instead, and the pulse after the burst would lay out all of them at once.
 * Idle (no timer) while nothing is queued.
 */
final class FramePacer implements Executor {

    private final Deque<Runnable> queue = new ArrayDeque<>();
    private boolean running;
    private final AnimationTimer timer = new AnimationTimer() {
        @Override
        public void handle(long now) {
            Runnable r = queue.poll();
            if (r != null) {
                r.run();
            }
            if (queue.isEmpty()) {
                stop();
                running = false;
            }
        }
    };

    /** Queues {@code r} for a coming pulse; from any thread. */
    @Override
    public void execute(Runnable r) {
        if (!Platform.isFxApplicationThread()) {
            Platform.runLater(() -> execute(r));
            return;
        }
        queue.add(r);
        if (!running) {
            running = true;
            timer.start();
        }
    }

    /** Drops what is queued (the window closes). FX thread. */
    void clear() {
        queue.clear();
        timer.stop();
        running = false;
    }
}
