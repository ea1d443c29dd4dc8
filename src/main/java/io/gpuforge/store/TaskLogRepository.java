package io.gpuforge.store;

import io.gpuforge.domain.tasks.TaskRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The task log (audit trail) in SQLite: one row per task, written when it starts and again when it ends, kept
 * across runs. A task's log is kept as its lines joined by newlines, at most {@value #MAX_LOG_LINES} lines (the
 * last ones). Cluster tasks recorded from a Proxmox VE task list are kept once per UPID.
 */
public final class TaskLogRepository {

    /** The last lines of a task's log kept: a long clone's progress log is thousands of lines. */
    public static final int MAX_LOG_LINES = 2000;
    private static final String COLUMNS = "id, started_millis, ended_millis, user_name, acting_as, connection_id,"
            + " connection_name, target, action, description, status, status_text, upid, log, origin";

    private final Database db;

    public TaskLogRepository(Database db) {
        this.db = db;
    }

    /** Stores a new entry; returns it with its id. */
    public TaskRecord insert(TaskRecord t) throws StoreException {
        return db.with(c -> insert(c, t));
    }

    private static TaskRecord insert(Connection c, TaskRecord t) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO task_log (" + COLUMNS.substring(4)
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", PreparedStatement.RETURN_GENERATED_KEYS)) {
            bind(ps, t);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                return t.withId(keys.next() ? keys.getLong(1) : 0);
            }
        }
    }

    /** Writes an entry's end, status, UPID and log. */
    public void update(TaskRecord t) throws StoreException {
        db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE task_log SET started_millis = ?, ended_millis = ?,"
                    + " user_name = ?, acting_as = ?, connection_id = ?, connection_name = ?, target = ?, action = ?,"
                    + " description = ?, status = ?, status_text = ?, upid = ?, log = ?, origin = ? WHERE id = ?")) {
                bind(ps, t);
                ps.setLong(15, t.id());
                return ps.executeUpdate();
            }
        });
    }

    /** Stores a cluster task by its UPID: a new one is added, a known one updated (it ended meanwhile). */
    public TaskRecord upsertByUpid(TaskRecord t) throws StoreException {
        String upid = t.upid().orElseThrow(() -> new IllegalArgumentException("a cluster task has a UPID"));
        return db.inTransaction(c -> {
            Optional<TaskRecord> known = byUpid(c, upid);
            if (known.isEmpty()) {
                return insert(c, t);
            }
            TaskRecord merged = known.get().status().finished() ? known.get()
                    : t.withId(known.get().id()).withLog(t.log().isEmpty() ? known.get().log() : t.log());
            try (PreparedStatement ps = c.prepareStatement("UPDATE task_log SET ended_millis = ?, status = ?,"
                    + " status_text = ?, log = ? WHERE id = ?")) {
                setInstant(ps, 1, merged.ended());
                ps.setString(2, merged.status().name());
                ps.setString(3, merged.statusText());
                ps.setString(4, joined(merged.log()));
                ps.setLong(5, merged.id());
                ps.executeUpdate();
            }
            return merged;
        });
    }

    /** The newest {@code limit} entries, oldest first. */
    public List<TaskRecord> latest(int limit) throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS
                    + " FROM task_log ORDER BY started_millis DESC, id DESC LIMIT ?")) {
                ps.setInt(1, limit);
                List<TaskRecord> out = rows(ps);
                Collections.reverse(out);
                return out;
            }
        });
    }

    /** Every entry that started in {@code [from, to)}, oldest first: what an export writes. */
    public List<TaskRecord> between(Instant from, Instant to) throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS
                    + " FROM task_log WHERE started_millis >= ? AND started_millis < ? ORDER BY started_millis, id")) {
                ps.setLong(1, from.toEpochMilli());
                ps.setLong(2, to.toEpochMilli());
                return rows(ps);
            }
        });
    }

    public Optional<TaskRecord> find(long id) throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM task_log WHERE id = ?")) {
                ps.setLong(1, id);
                List<TaskRecord> out = rows(ps);
                return out.isEmpty() ? Optional.empty() : Optional.of(out.get(0));
            }
        });
    }

    /**
     * Entries still RUNNING from an earlier run (GPUForge quit while waiting): nobody follows them any more, so
     * they end as FAILED with {@code why}. Returns how many.
     */
    public int abandonRunning(Instant now, String why) throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE task_log SET status = 'FAILED', status_text = ?,"
                    + " ended_millis = ? WHERE status = 'RUNNING' AND origin = 'GPUFORGE'")) {
                ps.setString(1, why);
                ps.setLong(2, now.toEpochMilli());
                return ps.executeUpdate();
            }
        });
    }

    private static Optional<TaskRecord> byUpid(Connection c, String upid) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM task_log WHERE upid = ?")) {
            ps.setString(1, upid);
            List<TaskRecord> out = rows(ps);
            return out.isEmpty() ? Optional.empty() : Optional.of(out.get(0));
        }
    }

    private static void bind(PreparedStatement ps, TaskRecord t) throws SQLException {
        ps.setLong(1, t.started().toEpochMilli());
        setInstant(ps, 2, t.ended());
        ps.setString(3, t.user());
        ps.setString(4, t.actingAs());
        ps.setLong(5, t.connectionId());
        ps.setString(6, t.connection());
        ps.setString(7, t.target());
        ps.setString(8, t.action());
        ps.setString(9, t.description());
        ps.setString(10, t.status().name());
        ps.setString(11, t.statusText());
        if (t.upid().isPresent()) {
            ps.setString(12, t.upid().get());
        } else {
            ps.setNull(12, Types.VARCHAR);
        }
        ps.setString(13, joined(t.log()));
        ps.setString(14, t.origin().name());
    }

    private static void setInstant(PreparedStatement ps, int index, Optional<Instant> at) throws SQLException {
        if (at.isPresent()) {
            ps.setLong(index, at.get().toEpochMilli());
        } else {
            ps.setNull(index, Types.INTEGER);
        }
    }

    static String joined(List<String> log) {
        List<String> kept = log.size() > MAX_LOG_LINES ? log.subList(log.size() - MAX_LOG_LINES, log.size()) : log;
        return String.join("\n", kept);
    }

    private static List<TaskRecord> rows(PreparedStatement ps) throws SQLException {
        List<TaskRecord> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                long ended = rs.getLong(3);
                Optional<Instant> end = rs.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(ended));
                String log = rs.getString(14);
                out.add(new TaskRecord(rs.getLong(1), Instant.ofEpochMilli(rs.getLong(2)), end, rs.getString(4),
                        rs.getString(5), rs.getLong(6), rs.getString(7), rs.getString(8), rs.getString(9),
                        rs.getString(10), TaskRecord.Status.valueOf(rs.getString(11)), rs.getString(12),
                        Optional.ofNullable(rs.getString(13)), log == null || log.isEmpty() ? List.of()
                        : Arrays.asList(log.split("\n", -1)), TaskRecord.Origin.valueOf(rs.getString(15))));
            }
        }
        return out;
    }
}
