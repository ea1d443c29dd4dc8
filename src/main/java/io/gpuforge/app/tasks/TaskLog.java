package io.gpuforge.app.tasks;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.tasks.TaskRecord;
import io.gpuforge.store.StoreException;
import io.gpuforge.store.TaskLogRepository;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task log: every long operation GPUForge runs on a connection (VM power actions, clones, templates, deletes,
 * node reboots, host changes applied), with who, what, when, on which target, how it ended and its log, kept in
 * SQLite across restarts as an audit trail. A task is written when it starts and when it ends; its log lines are
 * told to the listeners as they come. Listeners hear on the worker's thread: hop to your own. Exports are in
 * {@link TaskLogExport}.
 */
public final class TaskLog {

    /** The actions GPUForge writes to the task log (the window words each one). */
    public static final String VM_START = "vm.start";
    public static final String VM_SHUTDOWN = "vm.shutdown";
    public static final String VM_REBOOT = "vm.reboot";
    public static final String VM_STOP = "vm.stop";
    public static final String VM_CLONE = "vm.clone";
    public static final String VM_TEMPLATE = "vm.template";
    public static final String VM_DELETE = "vm.delete";
    public static final String VM_CREATE = "vm.create";
    public static final String NODE_REBOOT = "node.reboot";
    public static final String CT_CREATE = "ct.create";
    public static final String CT_START = "ct.start";
    public static final String CT_SHUTDOWN = "ct.shutdown";
    public static final String CT_STOP = "ct.stop";
    public static final String CT_DELETE = "ct.delete";
    /** Host changes applied (passthrough); the passthrough service writes it with the host as target. */
    public static final String HOST_APPLY = "host.apply";

    private static final Logger LOG = LoggerFactory.getLogger(TaskLog.class);
    private final TaskLogRepository repository;
    private final Clock clock;
    private final String user;
    private final List<Consumer<TaskRecord>> listeners = new CopyOnWriteArrayList<>();

    /** @param user who sits at this computer (the OS account), written with every entry */
    public TaskLog(TaskLogRepository repository, Clock clock, String user) {
        this.repository = repository;
        this.clock = clock;
        this.user = Objects.requireNonNull(user);
    }

    /** Tasks that were running when GPUForge last quit are nobody's any more: they are marked as abandoned. */
    public void abandonLeftovers() {
        try {
            int n = repository.abandonRunning(clock.instant(), "GPUForge quit while waiting for it; see the task on"
                    + " the server for how it ended");
            if (n > 0) {
                LOG.info("{} task(s) of an earlier run were still marked running; marked abandoned", n);
            }
        } catch (StoreException e) {
            LOG.warn("The task log could not be tidied: {}", e.getMessage());
        }
    }

    /** Starts an entry for a task on a saved connection; {@code actingAs} is the account the server sees. */
    public Running begin(ConnectionInfo c, String action, String target, String description) {
        return begin(c.id(), c.name(), c.username().isEmpty() ? user : c.username(), action, target, description);
    }

    /**
     * Starts an entry for any task (e.g. host changes applied over SSH: {@code action} {@code host.apply},
     * {@code target} the host).
     */
    public Running begin(long connectionId, String connection, String actingAs, String action, String target,
                         String description) {
        TaskRecord r = new TaskRecord(0, clock.instant(), Optional.empty(), user, actingAs, connectionId, connection,
                target, action, description, TaskRecord.Status.RUNNING, "", Optional.empty(), List.of(),
                TaskRecord.Origin.GPUFORGE);
        try {
            r = repository.insert(r);
        } catch (StoreException e) {
            LOG.warn("Task '{}' could not be written to the task log: {}", description, e.getMessage());
        }
        Running running = new Running(r);
        tell(r);
        return running;
    }

    /** The newest entries, oldest first; blocking. */
    public List<TaskRecord> recent(int limit) throws StoreException {
        return repository.latest(limit);
    }

    public Optional<TaskRecord> find(long id) throws StoreException {
        return repository.find(id);
    }

    /** Every entry that started in {@code [from, to)}, oldest first. */
    public List<TaskRecord> between(Instant from, Instant to) throws StoreException {
        return repository.between(from, to);
    }

    /** Keeps a task others ran on the cluster (seen in its task list), once per UPID. */
    public TaskRecord recordClusterTask(TaskRecord t) throws StoreException {
        TaskRecord stored = repository.upsertByUpid(t);
        tell(stored);
        return stored;
    }

    public void addListener(Consumer<TaskRecord> l) {
        listeners.add(l);
    }

    public void removeListener(Consumer<TaskRecord> l) {
        listeners.remove(l);
    }

    private void tell(TaskRecord r) {
        for (Consumer<TaskRecord> l : listeners) {
            try {
                l.accept(r);
            } catch (RuntimeException e) {
                LOG.warn("A task log listener failed", e);
            }
        }
    }

    /** A task while it runs: its log lines as they come, then its end. Thread-confined to the task's worker. */
    public final class Running implements TaskListener {
        private TaskRecord record;
        private final List<String> lines = new ArrayList<>();

        Running(TaskRecord record) {
            this.record = record;
        }

        public TaskRecord record() {
            return record;
        }

        /** The task's id on the server (a Proxmox UPID), once known. */
        public void upid(String upid) {
            record = record.withUpid(Optional.of(upid));
        }

        @Override
        public void line(String text) {
            lines.add(text);
            if (lines.size() > TaskLogRepository.MAX_LOG_LINES) {
                lines.remove(0);
            }
            record = record.withLog(lines);
            tell(record);
        }

        /** Ends as the backend said. */
        public TaskRecord finish(TaskOutcome outcome) {
            if (outcome.task().id().startsWith("UPID:")) {
                upid(outcome.task().id());
            }
            if (lines.isEmpty() && !outcome.log().isEmpty()) {
                lines.addAll(outcome.log());
                record = record.withLog(lines);
            }
            boolean cancelled = !outcome.ok() && outcome.status().toLowerCase(Locale.ROOT).contains("cancel");
            return end(outcome.ok() ? TaskRecord.Status.OK : cancelled ? TaskRecord.Status.CANCELLED
                    : TaskRecord.Status.FAILED, outcome.status());
        }

        /** Ends with an error before or while it ran (refused, connection lost). */
        public TaskRecord failed(Throwable t) {
            String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            return end(t instanceof InterruptedException ? TaskRecord.Status.CANCELLED : TaskRecord.Status.FAILED, m);
        }

        private TaskRecord end(TaskRecord.Status status, String text) {
            record = record.finished(clock.instant(), status, text);
            if (record.id() > 0) {
                try {
                    repository.update(record);
                } catch (StoreException e) {
                    LOG.warn("The end of task '{}' could not be written to the task log: {}", record.description(),
                            e.getMessage());
                }
            }
            tell(record);
            return record;
        }
    }
}
