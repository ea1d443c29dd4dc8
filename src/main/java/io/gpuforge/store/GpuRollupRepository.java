package io.gpuforge.store;

import io.gpuforge.domain.telemetry.GpuMetric;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * 1-minute rollups ({@code gpu_rollup_minute}): per GPU and minute the number of samples, the time covered by
 * readings (gaps left out), the energy, and per metric min/avg/max (a mask and 3 floats per present metric).
 */
public final class GpuRollupRepository {

    /** A minute of a GPU; {@code min/avg/max} are NaN for metrics without readings that minute. */
    public record Minute(long seriesId, long minuteMillis, int samples, long coveredMillis, double energyJoules,
                         double[] min, double[] avg, double[] max) {
    }

    private final Database db;

    public GpuRollupRepository(Database db) {
        this.db = db;
    }

    static void put(Connection c, List<Minute> rows) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT OR REPLACE INTO gpu_rollup_minute (series_id, minute_ms,"
                + " samples, covered_ms, energy_j, data) VALUES (?, ?, ?, ?, ?, ?)")) {
            for (Minute m : rows) {
                ps.setLong(1, m.seriesId());
                ps.setLong(2, m.minuteMillis());
                ps.setInt(3, m.samples());
                ps.setLong(4, m.coveredMillis());
                ps.setDouble(5, m.energyJoules());
                ps.setBytes(6, encode(m));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    public List<Minute> read(long series, long fromMillis, long toMillis) throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT minute_ms, samples, covered_ms, energy_j, data"
                    + " FROM gpu_rollup_minute WHERE series_id = ? AND minute_ms >= ? AND minute_ms < ? ORDER BY minute_ms")) {
                ps.setLong(1, series);
                ps.setLong(2, fromMillis);
                ps.setLong(3, toMillis);
                try (ResultSet rs = ps.executeQuery()) {
                    List<Minute> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(decode(series, rs.getLong(1), rs.getInt(2), rs.getLong(3), rs.getDouble(4),
                                rs.getBytes(5)));
                    }
                    return out;
                }
            }
        });
    }

    public int deleteBefore(long millis) throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM gpu_rollup_minute WHERE minute_ms < ?")) {
                ps.setLong(1, millis);
                return ps.executeUpdate();
            }
        });
    }

    public long count() throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM gpu_rollup_minute");
                 ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        });
    }

    private static byte[] encode(Minute m) {
        int mask = 0;
        for (int i = 0; i < GpuMetric.count(); i++) {
            if (!Double.isNaN(m.avg()[i])) {
                mask |= 1 << i;
            }
        }
        ByteBuffer b = ByteBuffer.allocate(4 + 12 * Integer.bitCount(mask));
        b.putInt(mask);
        for (int i = 0; i < GpuMetric.count(); i++) {
            if ((mask & (1 << i)) != 0) {
                b.putFloat((float) m.min()[i]).putFloat((float) m.avg()[i]).putFloat((float) m.max()[i]);
            }
        }
        return b.array();
    }

    private static Minute decode(long series, long minute, int samples, long covered, double energy, byte[] data)
            throws SQLException {
        int n = GpuMetric.count();
        double[] min = new double[n];
        double[] avg = new double[n];
        double[] max = new double[n];
        Arrays.fill(min, Double.NaN);
        Arrays.fill(avg, Double.NaN);
        Arrays.fill(max, Double.NaN);
        try {
            ByteBuffer b = ByteBuffer.wrap(data);
            int mask = b.getInt();
            for (int i = 0; i < n; i++) {
                if ((mask & (1 << i)) != 0) {
                    min[i] = b.getFloat();
                    avg[i] = b.getFloat();
                    max[i] = b.getFloat();
                }
            }
        } catch (BufferUnderflowException e) {
            throw new SQLException("a rollup of series " + series + " at " + minute + " is damaged", e);
        }
        return new Minute(series, minute, samples, covered, energy, min, avg, max);
    }
}
