package io.gpuforge.ui.monitor;

import java.util.concurrent.atomic.AtomicBoolean;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableBooleanValue;

/**
 * Redraws at most once per frame, and only while the view is showing: {@link #request()} from any thread (a sample
 * arrived) schedules one frame; many requests before it become one. While the view is hidden nothing runs; when it
 * shows again the pending frame runs. No timer runs when nothing was requested.
 */
final class FrameDriver {

    private final AtomicBoolean pending = new AtomicBoolean();
    private final AtomicBoolean posted = new AtomicBoolean();
    private final ObservableBooleanValue showing;
    private final Runnable frame;
    private final AnimationTimer timer = new AnimationTimer() {
        @Override
        public void handle(long now) {
            stop();
            running = false;
            if (showing.get() && pending.getAndSet(false)) {
                frame.run();
            }
        }
    };
    private boolean running;
    private boolean disposed;
    private final ChangeListener<Boolean> onShowing = (o, was, now) -> {
        if (now) {
            schedule();
        }
    };

    FrameDriver(ObservableBooleanValue showing, Runnable frame) {
        this.showing = showing;
        this.frame = frame;
        showing.addListener(onShowing);
    }

    /** Something changed: draw in the next frame (any thread). */
    void request() {
        pending.set(true);
        if (Platform.isFxApplicationThread()) {
            schedule();
        } else if (posted.compareAndSet(false, true)) {
            Platform.runLater(() -> {
                posted.set(false);
                schedule();
            });
        }
    }

    private void schedule() {
        if (!disposed && !running && pending.get() && showing.get()) {
            running = true;
            timer.start();
        }
    }

    /** Whether a frame is waiting (for tests). */
    boolean pending() {
        return pending.get();
    }

    void dispose() {
        disposed = true;
        timer.stop();
        showing.removeListener(onShowing);
    }
}
