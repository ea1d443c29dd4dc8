package io.gpuforge.store;

import io.gpuforge.domain.tasks.AppEvent;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The event log shown in the bottom panel: what GPUForge did and what went wrong, kept across runs. */
public final class EventRepository {

    private final Database db;

    public EventRepository(Database db) {
        this.db = db;
    }

    public AppEvent append(AppEvent e) throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO event (at_millis, level, source, message) VALUES (?, ?, ?, ?)",
                    PreparedStatement.RETURN_GENERATED_KEYS)) {
                ps.setLong(1, e.at().toEpochMilli());
                ps.setString(2, e.level().name());
                ps.setString(3, e.source());
                ps.setString(4, e.message());
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    long id = keys.next() ? keys.getLong(1) : 0;
                    return new AppEvent(id, e.at(), e.level(), e.source(), e.message());
                }
            }
        });
    }

    /** The newest {@code limit} events, oldest first. */
    public List<AppEvent> latest(int limit) throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT id, at_millis, level, source, message FROM event ORDER BY id DESC LIMIT ?")) {
                ps.setInt(1, limit);
                List<AppEvent> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new AppEvent(rs.getLong(1), Instant.ofEpochMilli(rs.getLong(2)),
                                AppEvent.Level.valueOf(rs.getString(3)), rs.getString(4), rs.getString(5)));
                    }
                }
                Collections.reverse(out);
                return out;
            }
        });
    }
}
