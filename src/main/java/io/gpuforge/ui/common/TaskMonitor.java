package io.gpuforge.ui.common;

import java.time.LocalTime;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;

/**
 * The tasks panel's model: every background task the UI started, with its state. Keeps the last
 * {@value #KEEP} entries. FX thread only.
 */
public final class TaskMonitor {

    static final int KEEP = 200;

    public enum State { RUNNING, SUCCEEDED, FAILED, CANCELLED }

    /** One row of the tasks panel. */
    public static final class Entry {
        private final String name;
        private final LocalTime started;
        private final boolean internal;
        private final ReadOnlyObjectWrapper<State> state = new ReadOnlyObjectWrapper<>(State.RUNNING);

        Entry(String name, LocalTime started, boolean internal) {
            this.name = name;
            this.started = started;
            this.internal = internal;
        }

        /** The window's own upkeep, not shown in the tasks panel. */
        public boolean internal() {
            return internal;
        }

        public String name() {
            return name;
        }

        public LocalTime started() {
            return started;
        }

        public ReadOnlyObjectProperty<State> stateProperty() {
            return state.getReadOnlyProperty();
        }

        public State state() {
            return state.get();
        }

        public void finish(State s) {
            state.set(s);
        }
    }

    private final ObservableList<Entry> entries = FXCollections.observableArrayList();
    private final FilteredList<Entry> shown = new FilteredList<>(entries, e -> !e.internal());

    public Entry begin(String name) {
        return begin(name, false);
    }

    /** {@code internal}: the window's own upkeep, counted while it runs but not shown in the panel. */
    public Entry begin(String name, boolean internal) {
        Entry e = new Entry(name, LocalTime.now(), internal);
        entries.add(e);
        if (entries.size() > KEEP) {
            entries.remove(0, entries.size() - KEEP);
        }
        return e;
    }

    public ObservableList<Entry> entries() {
        return FXCollections.unmodifiableObservableList(entries);
    }

    /** What the tasks panel lists: the tasks the user's actions started, not the window's upkeep. */
    public ObservableList<Entry> shown() {
        return FXCollections.unmodifiableObservableList(shown);
    }

    public long running() {
        return entries.stream().filter(e -> e.state() == State.RUNNING).count();
    }
}
