package io.gpuforge.store;

import io.gpuforge.domain.telemetry.GpuSample;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The newest samples another process writes into the store (gpuforge serve, while the window reads instead of
 * sampling the same GPUs again): each call returns what was written since the previous one, oldest first. SQLite's
 * WAL lets this reader in while the writer writes; a chunk is rewritten while its minute lasts, so the samples are
 * told apart by time, per GPU.
 */
public final class HistoryFollower {

    /** How far behind the newest sample another GPU's samples are still followed (later ones are history). */
    static final long LAG_MILLIS = 120_000;

    private final Database db;
    private final Map<Long, GpuSeriesRepository.Row> rows = new HashMap<>();
    private final Map<Long, Long> seen = new HashMap<>();
    private final long fromMillis;

    /** Follows from {@code fromMillis} on: older samples are history, read by the charts' queries. */
    public HistoryFollower(Database db, long fromMillis) {
        this.db = db;
        this.fromMillis = fromMillis;
    }

    /** The samples written since the last call (at the first, since {@code fromMillis}), oldest first. */
    public synchronized List<GpuSample> next() throws StoreException {
        // from the GPU furthest behind, but no further back than LAG before the newest: a GPU that went quiet
        // does not make every call read its hours of silence again
        long oldest = seen.values().stream().mapToLong(Long::longValue).min().orElse(fromMillis);
        long newest = seen.values().stream().mapToLong(Long::longValue).max().orElse(fromMillis);
        long since = Math.max(oldest, newest - LAG_MILLIS);
        List<long[]> keys = new ArrayList<>();
        List<byte[]> data = new ArrayList<>();
        db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT series_id, start_ms, data FROM gpu_sample_chunk"
                    + " WHERE start_ms >= ? AND end_ms > ? ORDER BY start_ms")) {
                ps.setLong(1, Math.floorDiv(since, TelemetryStore.CHUNK_MILLIS) * TelemetryStore.CHUNK_MILLIS);
                ps.setLong(2, since);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        keys.add(new long[] {rs.getLong(1), rs.getLong(2)});
                        data.add(rs.getBytes(3));
                    }
                }
            }
            return null;
        });
        List<GpuSample> out = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            long series = keys.get(i)[0];
            GpuSeriesRepository.Row row = row(series);
            if (row == null) {
                continue;
            }
            long last = seen.getOrDefault(series, since);
            for (GpuSample s : StoredSamples.decode(row, keys.get(i)[1], data.get(i))) {
                if (s.timeMillis() > last) {
                    out.add(s);
                    last = s.timeMillis();
                }
            }
            seen.put(series, last);
        }
        out.sort(Comparator.comparingLong(GpuSample::timeMillis));
        return out;
    }

    private GpuSeriesRepository.Row row(long series) throws StoreException {
        GpuSeriesRepository.Row r = rows.get(series);
        if (r == null) {
            for (GpuSeriesRepository.Row each : new GpuSeriesRepository(db).all()) {
                rows.put(each.id(), each);
            }
            r = rows.get(series);
        }
        return r;
    }
}
