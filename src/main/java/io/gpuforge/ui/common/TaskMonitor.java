package io.gpuforge.ui.common;

import java.time.LocalTime;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

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
        private final ReadOnlyObjectWrapper<State> state = new ReadOnlyObjectWrapper<>(State.RUNNING);

        Entry(String name, LocalTime started) {
            this.name = name;
            this.started = started;
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

    public Entry begin(String name) {
        Entry e = new Entry(name, LocalTime.now());
        entries.add(e);
        if (entries.size() > KEEP) {
            entries.remove(0, entries.size() - KEEP);
        }
        return e;
    }

    public ObservableList<Entry> entries() {
        return FXCollections.unmodifiableObservableList(entries);
    }

    public long running() {
        return entries.stream().filter(e -> e.state() == State.RUNNING).count();
    }
}
