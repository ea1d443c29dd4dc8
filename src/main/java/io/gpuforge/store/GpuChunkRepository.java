package io.gpuforge.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Raw samples, one chunk per GPU and minute ({@code gpu_sample_chunk}; the blob is {@link SampleCodec}'s). */
public final class GpuChunkRepository {

    /** A stored chunk. */
    public record Chunk(long seriesId, long startMillis, long endMillis, int samples, byte[] data) {
    }

    private final Database db;

    public GpuChunkRepository(Database db) {
        this.db = db;
    }

    /** Writes chunks (replacing those with the same GPU and minute) inside the caller's transaction. */
    static void put(Connection c, List<Chunk> chunks) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT OR REPLACE INTO gpu_sample_chunk (series_id, start_ms,"
                + " end_ms, samples, data) VALUES (?, ?, ?, ?, ?)")) {
            for (Chunk k : chunks) {
                ps.setLong(1, k.seriesId());
                ps.setLong(2, k.startMillis());
                ps.setLong(3, k.endMillis());
                ps.setInt(4, k.samples());
                ps.setBytes(5, k.data());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    static Optional<Chunk> get(Connection c, long series, long start) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT end_ms, samples, data FROM gpu_sample_chunk"
                + " WHERE series_id = ? AND start_ms = ?")) {
            ps.setLong(1, series);
            ps.setLong(2, start);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Chunk(series, start, rs.getLong(1), rs.getInt(2), rs.getBytes(3)))
                        : Optional.empty();
            }
        }
    }

    /** The start of a GPU's newest chunk, if it has any. */
    static Optional<Long> newestStart(Connection c, long series) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT max(start_ms) FROM gpu_sample_chunk WHERE series_id = ?")) {
            ps.setLong(1, series);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    long v = rs.getLong(1);
                    return rs.wasNull() ? Optional.empty() : Optional.of(v);
                }
                return Optional.empty();
            }
        }
    }

    /** The chunks of a GPU that hold samples in [from, to), in time order. */
    public List<Chunk> read(long series, long fromMillis, long toMillis) throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT start_ms, end_ms, samples, data FROM gpu_sample_chunk"
                    + " WHERE series_id = ? AND start_ms >= ? AND start_ms < ? AND end_ms >= ? ORDER BY start_ms")) {
                ps.setLong(1, series);
                ps.setLong(2, Math.floorDiv(fromMillis, TelemetryStore.CHUNK_MILLIS) * TelemetryStore.CHUNK_MILLIS);
                ps.setLong(3, toMillis);
                ps.setLong(4, fromMillis);
                try (ResultSet rs = ps.executeQuery()) {
                    List<Chunk> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(new Chunk(series, rs.getLong(1), rs.getLong(2), rs.getInt(3), rs.getBytes(4)));
                    }
                    return out;
                }
            }
        });
    }

    /** Starts of the chunks in [from, to) of every GPU: what a rollup pass works through. */
    public List<long[]> keys(long fromMillis, long toMillis) throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT series_id, start_ms FROM gpu_sample_chunk"
                    + " WHERE start_ms >= ? AND start_ms < ? ORDER BY series_id, start_ms")) {
                ps.setLong(1, fromMillis);
                ps.setLong(2, toMillis);
                try (ResultSet rs = ps.executeQuery()) {
                    List<long[]> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(new long[] {rs.getLong(1), rs.getLong(2)});
                    }
                    return out;
                }
            }
        });
    }

    public int deleteBefore(long millis) throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM gpu_sample_chunk WHERE start_ms < ?")) {
                ps.setLong(1, millis);
                return ps.executeUpdate();
            }
        });
    }

    public long count() throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT coalesce(sum(samples), 0) FROM gpu_sample_chunk");
                 ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        });
    }

    public Optional<Chunk> get(long series, long start) throws StoreException {
        return db.with(c -> get(c, series, start));
    }
}
