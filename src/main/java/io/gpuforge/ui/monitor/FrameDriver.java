package io.gpuforge.ui.monitor;

import java.util.concurrent.atomic.AtomicBoolean;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableBooleanValue;

/**
 * Redraws at most once per frame, and only while the view is showing: {@link #request()} from any thread schedules
 * one frame; many requests before it become one. New readings ({@link #requestForData()}) redraw at most every
 * {@link #DATA_INTERVAL_NANOS} (a reading a second per GPU needs no 60 redraws a second, however many GPUs stream);
 * what the user does (zoom, scroll, another window) redraws in the next frame. While the view is hidden nothing runs;
 * when it shows again the pending frame runs. No timer runs when nothing was requested.
 */
final class FrameDriver {

    /** The shortest time between two redraws for new readings alone: a quarter of a second. */
    static final long DATA_INTERVAL_NANOS = 250_000_000L;

    private final AtomicBoolean pending = new AtomicBoolean();
    private final AtomicBoolean urgent = new AtomicBoolean();
    private final AtomicBoolean posted = new AtomicBoolean();
    private final ObservableBooleanValue showing;
    private final Runnable frame;
    private final AnimationTimer timer = new AnimationTimer() {
        @Override
        public void handle(long now) {
            if (!urgent.get() && lastFrame != 0 && now - lastFrame < DATA_INTERVAL_NANOS) {
                return; // only new readings: wait for their turn
            }
            stop();
            running = false;
            urgent.set(false);
            if (showing.get() && pending.getAndSet(false)) {
                lastFrame = now;
                frame.run();
            }
        }
    };
    private boolean running;
    private long lastFrame;
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

    /** Something the user sees changed: draw in the next frame (any thread). */
    void request() {
        urgent.set(true);
        requestForData();
    }

    /** New readings arrived: draw in the next frame that is due (any thread). */
    void requestForData() {
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
