package io.gpuforge.store;

import io.gpuforge.domain.telemetry.GpuId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The GPUs telemetry has seen ({@code gpu_series}): one row per host and device, with what was last said of it. */
public final class GpuSeriesRepository {

    /** A GPU's row. {@code source} is the source kind's JSON name. */
    public record Row(long id, GpuId gpu, String name, String source, Optional<String> node, Optional<String> vm,
                      long lastMillis) {
        public Row {
            Objects.requireNonNull(gpu);
            Objects.requireNonNull(name);
            Objects.requireNonNull(source);
            Objects.requireNonNull(node);
            Objects.requireNonNull(vm);
        }

        boolean sameLabels(Row o) {
            return name.equals(o.name) && source.equals(o.source) && node.equals(o.node) && vm.equals(o.vm);
        }
    }

    private final Database db;

    public GpuSeriesRepository(Database db) {
        this.db = db;
    }

    public List<Row> all() throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT id, host, device, name, source, node, vm, last_ms FROM gpu_series ORDER BY host, device");
                 ResultSet rs = ps.executeQuery()) {
                List<Row> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new Row(rs.getLong(1), new GpuId(rs.getString(2), rs.getString(3)), rs.getString(4),
                            rs.getString(5), Optional.ofNullable(rs.getString(6)), Optional.ofNullable(rs.getString(7)),
                            rs.getLong(8)));
                }
                return out;
            }
        });
    }

    public Optional<Row> find(GpuId gpu) throws StoreException {
        return all().stream().filter(r -> r.gpu().equals(gpu)).findFirst();
    }

    /** Inserts or updates a GPU's row inside the caller's transaction; returns its id. */
    static long upsert(Connection c, Row r) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO gpu_series (host, device, name, source, node, vm,"
                + " last_ms) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (host, device) DO UPDATE SET name = excluded.name,"
                + " source = excluded.source, node = excluded.node, vm = excluded.vm,"
                + " last_ms = max(last_ms, excluded.last_ms)")) {
            ps.setString(1, r.gpu().host());
            ps.setString(2, r.gpu().device());
            ps.setString(3, r.name());
            ps.setString(4, r.source());
            ps.setString(5, r.node().orElse(null));
            ps.setString(6, r.vm().orElse(null));
            ps.setLong(7, r.lastMillis());
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM gpu_series WHERE host = ? AND device = ?")) {
            ps.setString(1, r.gpu().host());
            ps.setString(2, r.gpu().device());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("gpu_series row of " + r.gpu() + " vanished");
                }
                return rs.getLong(1);
            }
        }
    }

    static void touch(Connection c, long id, long lastMillis) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE gpu_series SET last_ms = max(last_ms, ?) WHERE id = ?")) {
            ps.setLong(1, lastMillis);
            ps.setLong(2, id);
            ps.executeUpdate();
        }
    }
}
