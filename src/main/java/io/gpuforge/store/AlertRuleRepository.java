package io.gpuforge.store;

import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.GpuId;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The GPU monitor's alert rules, per GPU or for every GPU. */
public final class AlertRuleRepository {

    private final Database db;

    public AlertRuleRepository(Database db) {
        this.db = db;
    }

    public List<AlertRule> all() throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT id, gpu_host, gpu_device, kind, threshold, hold_ms,"
                    + " hysteresis, enabled FROM alert_rule ORDER BY id"); ResultSet rs = ps.executeQuery()) {
                List<AlertRule> out = new ArrayList<>();
                while (rs.next()) {
                    long id = rs.getLong(1);
                    try {
                        Optional<GpuId> gpu = rs.getString(2) == null ? Optional.empty()
                                : Optional.of(new GpuId(rs.getString(2), rs.getString(3)));
                        out.add(new AlertRule(id, gpu, AlertRule.Kind.fromJson(rs.getString(4)), rs.getDouble(5),
                                Duration.ofMillis(rs.getLong(6)), rs.getDouble(7), rs.getInt(8) != 0));
                    } catch (IllegalArgumentException e) {
                        throw new SQLException("alert rule " + id + " is damaged: " + e.getMessage(), e);
                    }
                }
                return out;
            }
        });
    }

    /** Stores a new rule (id 0) or replaces a stored one; returns it with its id. */
    public AlertRule save(AlertRule r) throws StoreException {
        return db.with(c -> {
            String sql = r.id() == 0
                    ? "INSERT INTO alert_rule (gpu_host, gpu_device, kind, threshold, hold_ms, hysteresis, enabled)"
                            + " VALUES (?, ?, ?, ?, ?, ?, ?)"
                    : "UPDATE alert_rule SET gpu_host = ?, gpu_device = ?, kind = ?, threshold = ?, hold_ms = ?,"
                            + " hysteresis = ?, enabled = ? WHERE id = ?";
            try (PreparedStatement ps = c.prepareStatement(sql, PreparedStatement.RETURN_GENERATED_KEYS)) {
                if (r.gpu().isPresent()) {
                    ps.setString(1, r.gpu().get().host());
                    ps.setString(2, r.gpu().get().device());
                } else {
                    ps.setNull(1, Types.VARCHAR);
                    ps.setNull(2, Types.VARCHAR);
                }
                ps.setString(3, r.kind().json());
                ps.setDouble(4, r.threshold());
                ps.setLong(5, r.hold().toMillis());
                ps.setDouble(6, r.hysteresis());
                ps.setInt(7, r.enabled() ? 1 : 0);
                if (r.id() != 0) {
                    ps.setLong(8, r.id());
                    if (ps.executeUpdate() != 1) {
                        throw new SQLException("alert rule " + r.id() + " is not there (removed meanwhile?)");
                    }
                    return r;
                }
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    if (!keys.next()) {
                        throw new SQLException("the new alert rule got no id");
                    }
                    return r.withId(keys.getLong(1));
                }
            }
        });
    }

    public boolean remove(long id) throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM alert_rule WHERE id = ?")) {
                ps.setLong(1, id);
                return ps.executeUpdate() == 1;
            }
        });
    }
}
