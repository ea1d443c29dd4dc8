package io.gpuforge.ui.common;

import java.util.Objects;
import java.util.concurrent.Callable;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A value read in the background: the last value, whether a read runs, and the last failure (its cause kept
 * for "details"). {@link #refresh()} (F5) cancels a running read and starts over; {@link #changed()} (a change
 * event arrived) never cancels: while a read runs, any number of changes are coalesced into ONE reload after
 * it. Base of the view-models that show one host's or connection's data. FX thread only.
 */
public class Loadable<T> {

    private static final Logger LOG = LoggerFactory.getLogger(Loadable.class);

    private final BackgroundTasks tasks;
    private final Callable<T> source;
    private final String taskName;
    private final ReadOnlyObjectWrapper<T> value = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<Throwable> failure = new ReadOnlyObjectWrapper<>();
    private BackgroundTasks.Cancellable running;
    private boolean reloadAfter;
    /** Reads started so far; the number of the newest is the one whose outcome counts. */
    private int loads;

    public Loadable(BackgroundTasks tasks, Callable<T> source, String taskName) {
        this.tasks = Objects.requireNonNull(tasks);
        this.source = Objects.requireNonNull(source);
        this.taskName = Objects.requireNonNull(taskName);
    }

    /** Reads again now; a read already running is cancelled first. */
    public void refresh() {
        if (running != null && !running.isDone()) {
            running.cancel();
        }
        reloadAfter = false;
        start();
    }

    /** Something changed: read again, after the running read if there is one (bursts become one reload). */
    public void changed() {
        if (loading.get()) {
            reloadAfter = true;
        } else {
            start();
        }
    }

    /** Reads if nothing was read (or tried) yet: for a page opened for the first time. */
    public void loadOnce() {
        if (value.get() == null && failure.get() == null && !loading.get()) {
            start();
        }
    }

    /** Whether something was read or tried: F5 refreshes only what was shown. */
    public boolean started() {
        return value.get() != null || failure.get() != null || loading.get();
    }

    private void start() {
        int generation = ++loads;
        loading.set(true);
        // a read that was overtaken (refresh cancelled it) changes nothing when it ends
        running = tasks.supply(taskName, source)
                .onSuccess(v -> {
                    if (generation == loads) {
                        value.set(v);
                        failure.set(null);
                        error.set(null);
                    }
                })
                .onError(t -> {
                    if (generation == loads) {
                        // handled here, so logged here, once, with its stack trace
                        LOG.warn("{} failed: {}", taskName, message(t), t);
                        failure.set(t);
                        error.set(message(t));
                    }
                })
                .andFinally(() -> {
                    if (generation == loads) {
                        loading.set(false);
                        if (reloadAfter) {
                            reloadAfter = false;
                            start();
                        }
                    }
                })
                .start();
    }

    static String message(Throwable t) {
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    /** How many reads were started (tests of the coalescing). */
    public int loadCount() {
        return loads;
    }

    public ReadOnlyObjectProperty<T> valueProperty() {
        return value.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    /** The short message of the last failure; null after a good read. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** The last failure with its cause and stack trace, for "details"; null after a good read. */
    public ReadOnlyObjectProperty<Throwable> failureProperty() {
        return failure.getReadOnlyProperty();
    }
}
