package io.gpuforge.ui.tasks;

import io.gpuforge.app.tasks.TaskLog;
import io.gpuforge.app.tasks.TaskLogExport;
import io.gpuforge.domain.tasks.TaskRecord;
import io.gpuforge.ui.common.BackgroundTasks;
import io.gpuforge.ui.common.I18n;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The task log's rows, newest first: the last {@value #SHOWN} entries of earlier runs and every task of this one,
 * updated as tasks log lines and end. Updates arrive on worker threads and are handed to the FX thread in one batch
 * per pulse, however many lines a task writes meanwhile. Exports the whole log as CSV or JSON lines. FX thread.
 */
public final class TaskLogViewModel {

    static final int SHOWN = 500;
    private static final Pattern PERCENT = Pattern.compile("(\\d{1,3}(?:\\.\\d+)?)\\s*%");

    private final TaskLog log;
    private final BackgroundTasks tasks;
    private final I18n i18n;
    private final ObservableList<TaskRecord> rows = FXCollections.observableArrayList();
    private final Map<String, TaskRecord> pending = new LinkedHashMap<>();
    private final AtomicBoolean flushQueued = new AtomicBoolean();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper();
    private final Consumer<TaskRecord> listener = this::arrived;

    public TaskLogViewModel(TaskLog log, BackgroundTasks tasks, I18n i18n) {
        this.log = log;
        this.tasks = tasks;
        this.i18n = i18n;
    }

    /** Starts listening, then reads the history (an entry that arrives in between is shown once). */
    public void start() {
        log.addListener(listener);
        tasks.supply(i18n.get("console.task.loadTaskLog"), () -> log.recent(SHOWN)).internal()
                .onSuccess(earlier -> {
                    List<TaskRecord> older = new ArrayList<>(earlier);
                    Collections.reverse(older);
                    older.removeIf(t -> indexOf(key(t)) >= 0);
                    rows.addAll(older);
                })
                .onError(t -> message.set(i18n.get("console.tasklog.loadFailed", t.getMessage())))
                .start();
    }

    /** Newest first. */
    public ObservableList<TaskRecord> rows() {
        return rows;
    }

    /** What the last export (or load) said; null before. */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    private static String key(TaskRecord t) {
        return t.id() > 0 ? "#" + t.id() : t.started().toEpochMilli() + "/" + t.connectionId() + "/" + t.description();
    }

    private int indexOf(String key) {
        for (int i = 0; i < rows.size(); i++) {
            if (key(rows.get(i)).equals(key)) {
                return i;
            }
        }
        return -1;
    }

    /** On a worker thread: keep the newest state of the task, and flush once on the FX thread. */
    private void arrived(TaskRecord t) {
        synchronized (pending) {
            pending.put(key(t), t);
        }
        if (flushQueued.compareAndSet(false, true)) {
            Platform.runLater(this::flush);
        }
    }

    /** Applies what arrived since the last flush (FX thread); public for tests that drive it by hand. */
    void flush() {
        flushQueued.set(false);
        List<TaskRecord> batch;
        synchronized (pending) {
            batch = new ArrayList<>(pending.values());
            pending.clear();
        }
        for (TaskRecord t : batch) {
            int i = indexOf(key(t));
            if (i >= 0) {
                rows.set(i, t);
            } else {
                rows.add(0, t);
            }
        }
        if (rows.size() > SHOWN * 2) {
            rows.remove(SHOWN * 2, rows.size());
        }
    }

    /** "running · 42 %" while it runs (the last percentage its log gave), else how it ended. */
    public static String progress(TaskRecord t, I18n i18n) {
        if (t.status() == TaskRecord.Status.RUNNING) {
            for (int i = t.log().size() - 1; i >= 0; i--) {
                Matcher m = PERCENT.matcher(t.log().get(i));
                String last = null;
                while (m.find()) {
                    last = m.group(1);
                }
                if (last != null) {
                    return i18n.get("console.tasklog.runningAt", last);
                }
            }
            return i18n.get("console.tasklog.running");
        }
        switch (t.status()) {
            case OK:
                return i18n.get("console.tasklog.ok");
            case CANCELLED:
                return i18n.get("console.tasklog.cancelled");
            default:
                return i18n.get("console.tasklog.failed", t.statusText());
        }
    }

    /** Writes the whole task log to {@code file} (CSV for {@code .csv}, else JSON lines) in the background. */
    public void export(Path file, Runnable done) {
        Objects.requireNonNull(file);
        TaskLogExport.Format format = TaskLogExport.Format.of(file);
        tasks.supply(i18n.get("console.task.exportTaskLog", file.getFileName()), () -> TaskLogExport.write(
                log.between(Instant.EPOCH, Instant.now().plus(1, ChronoUnit.DAYS)), format, file))
                .onSuccess(n -> message.set(i18n.get("console.tasklog.exported", n, file)))
                .onError(t -> message.set(i18n.get("console.tasklog.exportFailed", file, t.getMessage())))
                .andFinally(done)
                .start();
    }

    public void dispose() {
        log.removeListener(listener);
    }
}
