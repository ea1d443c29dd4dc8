package io.gpuforge.ui.monitor;

import java.time.Duration;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * The time window the charts show: a preset span ending now (live), or a span ending at a fixed time (paused,
 * scrolled back, zoomed, a custom range). {@link #changes()} ticks whenever the window moves. FX thread only.
 */
final class ChartWindow {

    /** The windows offered; CUSTOM is a range the user typed. */
    enum Preset {
        M5(Duration.ofMinutes(5)), H1(Duration.ofHours(1)), H24(Duration.ofHours(24)), D7(Duration.ofDays(7)),
        D30(Duration.ofDays(30)), CUSTOM(Duration.ofHours(1));

        final Duration span;

        Preset(Duration span) {
            this.span = span;
        }
    }

    static final long MIN_SPAN = 60_000;
    static final long MAX_SPAN = Duration.ofDays(90).toMillis();

    private final ReadOnlyObjectWrapper<Preset> preset = new ReadOnlyObjectWrapper<>(Preset.M5);
    private final ReadOnlyBooleanWrapper live = new ReadOnlyBooleanWrapper(true);
    private final ReadOnlyIntegerWrapper changes = new ReadOnlyIntegerWrapper();
    private long span = Preset.M5.span.toMillis();
    private long end;

    /** A preset window ending now, live. */
    void preset(Preset p) {
        preset.set(p);
        span = p.span.toMillis();
        live.set(true);
        changes.set(changes.get() + 1);
    }

    /** A fixed range [from, to). */
    void custom(long fromMillis, long toMillis) {
        if (toMillis - fromMillis < MIN_SPAN || toMillis - fromMillis > MAX_SPAN) {
            throw new IllegalArgumentException("span");
        }
        preset.set(Preset.CUSTOM);
        span = toMillis - fromMillis;
        end = toMillis;
        live.set(false);
        changes.set(changes.get() + 1);
    }

    /** Stops following now: the window stays where it is. */
    void pause(long nowMillis) {
        if (live.get()) {
            end = nowMillis;
            live.set(false);
            changes.set(changes.get() + 1);
        }
    }

    /** Follows now again with the current span. */
    void resume() {
        if (!live.get()) {
            live.set(true);
            changes.set(changes.get() + 1);
        }
    }

    /** Zooms by {@code factor} (below 1: in) keeping the time {@code anchor} where it is; a live window stays live. */
    void zoom(double factor, long anchor, long nowMillis) {
        long next = Math.max(MIN_SPAN, Math.min(MAX_SPAN, Math.round(span * factor)));
        if (next == span) {
            return;
        }
        if (!live.get()) {
            long a = Math.max(end - span, Math.min(end, anchor));
            double at = (double) (a - (end - span)) / span;
            end = Math.round(a + (1 - at) * next);
        }
        span = next;
        changes.set(changes.get() + 1);
    }

    /** Scrolls by {@code deltaMillis} (negative: back in time); leaves live, and never goes past now. */
    void pan(long deltaMillis, long nowMillis) {
        long e = live.get() ? nowMillis : end;
        end = Math.min(nowMillis, e + deltaMillis);
        live.set(end >= nowMillis && deltaMillis > 0 && live.get());
        changes.set(changes.get() + 1);
    }

    long from(long nowMillis) {
        return to(nowMillis) - span;
    }

    long to(long nowMillis) {
        return live.get() ? nowMillis : end;
    }

    long span() {
        return span;
    }

    boolean isLive() {
        return live.get();
    }

    ReadOnlyBooleanProperty liveProperty() {
        return live.getReadOnlyProperty();
    }

    ReadOnlyObjectProperty<Preset> presetProperty() {
        return preset.getReadOnlyProperty();
    }

    ReadOnlyIntegerProperty changes() {
        return changes.getReadOnlyProperty();
    }
}
