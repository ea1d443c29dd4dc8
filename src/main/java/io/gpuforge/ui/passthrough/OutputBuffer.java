package io.gpuforge.ui.passthrough;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.util.Duration;

/**
 * Lines written by a worker thread (an apply's output, a reboot's progress), handed to the FX thread in batches at
 * most every {@value #PERIOD_MS} ms so a chatty command never floods the FX thread. Thread-safe on the writing side;
 * {@link #start}, {@link #drain} and {@link #stop} are for the FX thread.
 */
final class OutputBuffer {

    static final int PERIOD_MS = 120;
    private final ConcurrentLinkedQueue<String> pending = new ConcurrentLinkedQueue<>();
    private final AtomicReference<String> status = new AtomicReference<>();
    private final Consumer<List<String>> sink;
    private final Consumer<String> statusSink;
    private Timeline timeline;

    OutputBuffer(Consumer<List<String>> sink) {
        this(sink, s -> { });
    }

    /** @param statusSink gets the latest status line (one line that changes, beside the log), on the FX thread */
    OutputBuffer(Consumer<List<String>> sink, Consumer<String> statusSink) {
        this.sink = sink;
        this.statusSink = statusSink;
    }

    /** Any thread: the status line now (only the latest one reaches the FX thread). */
    void status(String line) {
        status.set(line);
    }

    /** Any thread. */
    void add(String line) {
        pending.add(line);
    }

    void start() {
        if (timeline == null) {
            timeline = new Timeline(new KeyFrame(Duration.millis(PERIOD_MS), e -> drain()));
            timeline.setCycleCount(Timeline.INDEFINITE);
            timeline.play();
        }
    }

    /** Hands what came so far to the sink (also when the work ended, so nothing is lost). */
    void drain() {
        List<String> batch = new ArrayList<>();
        for (String s = pending.poll(); s != null; s = pending.poll()) {
            batch.add(s);
        }
        if (!batch.isEmpty()) {
            sink.accept(batch);
        }
        String now = status.getAndSet(null);
        if (now != null) {
            statusSink.accept(now);
        }
    }

    void stop() {
        if (timeline != null) {
            timeline.stop();
            timeline = null;
        }
        drain();
    }
}
